/**
 * Team members: the people listed on the account's team, each with a label (`member` unless told). A
 * member may be a user of another account found by their exact email; membership is a listing only and
 * gives no access here (portal users and their roles do that).
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, call } from '../api/client';
import { ErrorNote, Field, useSave } from '../setup/availability/kit';
import { teamKey, useMembers, type Member } from './data';
import { ConfirmButton } from './ConfirmButton';

export function Members({ canWrite }: { canWrite: boolean }) {
  const members = useMembers();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = useSave([teamKey('members')]);
  const headingId = useId();
  return (
    <section className="setup-section" aria-labelledby={headingId} id="members">
      <div className="setup-section__head">
        <h2 id={headingId}>Members</h2>
        {canWrite && !adding && (
          <button type="button" className="button" onClick={() => setAdding(true)}>
            Add member
          </button>
        )}
      </div>
      <p className="muted">
        The people listed on your team, with a label. Listing someone gives them no access: access comes from a portal user’s role.
      </p>
      {!canWrite && <p className="team-note">Your role may see the team but not change it.</p>}
      {adding && <AddMember onDone={() => setAdding(false)} />}
      {members.isPending && <p className="muted">Loading…</p>}
      {members.data?.length === 0 && <p className="muted">None yet.</p>}
      <ErrorNote failure={remove.failure} />
      <ul className="setup-list">
        {members.data?.map((member) => (
          <li key={member.id} className="setup-item">
            {editing === member.id ? (
              <LabelForm member={member} onDone={() => setEditing(null)} />
            ) : (
              <>
                <div className="setup-item__main">
                  <strong>{member.name}</strong> <span className="team-badge">{member.role}</span>
                  <div className="setup-item__desc">
                    {member.email} · on the team since {member.created_at.slice(0, 10)}
                  </div>
                </div>
                {canWrite && (
                  <div className="setup-item__actions">
                    <button
                      type="button"
                      className="button"
                      onClick={() => setEditing(member.id)}
                      aria-label={`Change the label of ${member.name}`}
                    >
                      Change label
                    </button>
                    <ConfirmButton
                      armed={confirming === member.id}
                      busy={remove.busy}
                      onArm={() => setConfirming(member.id)}
                      onConfirm={() =>
                        void remove.run(
                          () => call(api.DELETE('/api/my-operator/members/{id}', { params: { path: { id: member.id } } })),
                          () => setConfirming(null),
                        )
                      }
                      label="Take off team"
                      ariaLabel={`Take ${member.name} off the team`}
                      confirmLabel={`Really take ${member.name} off the team`}
                    />
                  </div>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function LabelForm({ member, onDone }: { member: Member; onDone: () => void }) {
  const [label, setLabel] = useState(member.role);
  const save = useSave([teamKey('members')]);
  return (
    <form
      className="setup-form"
      aria-label={`Label of ${member.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save.run(
          () => call(api.PUT('/api/my-operator/members/{id}', { params: { path: { id: member.id } }, body: { role: label } })),
          onDone,
        );
      }}
    >
      <Field label={`Label of ${member.name}`} value={label} onChange={setLabel} required maxLength={50} />
      <ErrorNote failure={save.failure} />
      <div className="setup-form__actions">
        <button type="submit" className="button button--primary" disabled={save.busy}>
          Save label
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function AddMember({ onDone }: { onDone: () => void }) {
  const [q, setQ] = useState('');
  const [label, setLabel] = useState('member');
  const query = q.trim();
  const found = useQuery({
    queryKey: teamKey(`candidates:${query}`),
    queryFn: async () => (await call(api.GET('/api/my-operator/users-search', { params: { query: { q: query } } }))).data,
    enabled: query.length >= 2,
  });
  const save = useSave([teamKey('members')]);
  return (
    <div className="setup-form" role="group" aria-label="Add a member">
      <div className="row-fields">
        <Field label="Find by name or email" type="search" value={q} onChange={setQ} autoComplete="off" />
        <Field label="Label" value={label} onChange={setLabel} maxLength={50} short />
      </div>
      <p className="team-grid__why">
        Your own users are found by part of their name or email; someone from another account only by their whole email.
      </p>
      <div aria-live="polite">
        {query.length >= 2 && found.data?.length === 0 && <p className="muted">Nobody found who is not already on the team.</p>}
        {found.data && found.data.length > 0 && (
          <ul className="setup-list">
            {found.data.map((candidate) => (
              <li key={candidate.id} className="setup-item">
                <div className="setup-item__main">
                  <strong>{candidate.name}</strong>
                  <div className="setup-item__desc">{candidate.email}</div>
                </div>
                <button
                  type="button"
                  className="button"
                  disabled={save.busy}
                  onClick={() =>
                    void save.run(
                      () => call(api.POST('/api/my-operator/members', { body: { user_id: candidate.id, role: label || undefined } })),
                      onDone,
                    )
                  }
                >
                  Add {candidate.name}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ErrorNote failure={save.failure} />
      <div className="setup-form__actions">
        <button type="button" className="button" onClick={onDone}>
          Close
        </button>
      </div>
    </div>
  );
}

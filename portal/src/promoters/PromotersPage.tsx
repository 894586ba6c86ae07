/**
 * Promoters (`/promoters?venue=`): the venue's promoters' submissions awaiting approval (approve, or
 * reject with a reason mailed to the promoter), the venue's promoters with their agreements (accept or
 * decline a request, set the share, end), and invitations by email. Needs `events` read; changes need
 * `events` write.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, messageOf } from '../api/client';
import { LiveNotice } from '../shell/Notice';
import { useCan, useCurrentVenue } from '../shell/account';
import { usePromoterInvitations, useSubmissions, useVenuePromoters, venuePromotersKey, words } from './data';
import './promoters.css';

export default function PromotersPage() {
  const venue = useCurrentVenue();
  const can = useCan();
  if (!venue) return null;
  if (!can('events', 'read'))
    return (
      <main className="page promoters" id="main">
        <h1>Promoters</h1>
        <p>Your role may not see this venue’s promoters.</p>
      </main>
    );
  return <Promoters key={venue.id} venueId={venue.id} venueName={venue.name} canWrite={can('events', 'write')} />;
}

function Promoters({ venueId, venueName, canWrite }: { venueId: string; venueName: string; canWrite: boolean }) {
  const client = useQueryClient();
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: venuePromotersKey(venueId) });

  async function run(done: string, action: () => Promise<unknown>) {
    setNote(null);
    setError(null);
    try {
      await action();
      setNote(done);
      await refresh();
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <main className="page promoters" id="main">
      <header>
        <h1>Promoters</h1>
        <p className="muted">Promoters who run events at {venueName}</p>
      </header>
      <LiveNotice note={note} error={error} />
      <Submissions venueId={venueId} canWrite={canWrite} run={run} />
      <PromoterList venueId={venueId} canWrite={canWrite} run={run} />
      {canWrite && <Invite venueId={venueId} run={run} />}
    </main>
  );
}

type Run = (done: string, action: () => Promise<unknown>) => Promise<void>;

function Submissions({ venueId, canWrite, run }: { venueId: string; canWrite: boolean; run: Run }) {
  const submissions = useSubmissions(venueId);
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const id = (eventId: string) => ({ params: { path: { id: eventId } } });
  return (
    <section className="panel promoters__panel" aria-labelledby="submissions-title">
      <h2 id="submissions-title">Submissions awaiting approval</h2>
      {submissions.error && (
        <p className="error" role="alert">
          {messageOf(submissions.error)}
        </p>
      )}
      {submissions.data && submissions.data.length === 0 && <p>No submissions are waiting.</p>}
      {submissions.data && submissions.data.length > 0 && (
        <ul className="promoters__list">
          {submissions.data.map((event) => (
            <li key={event.id} className="promoters__item">
              <div>
                <strong>{event.name}</strong> <span className="muted">by {event.promoter_name}</span>
                <div className="muted">
                  {event.event_date}
                  {event.start_time ? ` from ${event.start_time}` : ''}
                  {event.event_type ? ` · ${event.event_type}` : ''}
                </div>
                {event.description && <p>{event.description}</p>}
              </div>
              {canWrite && rejecting !== event.id && (
                <div className="actions">
                  <button
                    type="button"
                    className="button button--primary"
                    aria-label={`Approve ${event.name}`}
                    onClick={() => void run(`Approved ${event.name}.`, () => call(api.POST('/api/my-events/{id}/approve', id(event.id))))}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Reject ${event.name}`}
                    onClick={() => {
                      setRejecting(event.id);
                      setReason('');
                    }}
                  >
                    Reject…
                  </button>
                </div>
              )}
              {canWrite && rejecting === event.id && (
                <form
                  className="promoters__reject"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void run(`Rejected ${event.name}: the promoter is told why.`, () =>
                      call(api.POST('/api/my-events/{id}/reject', { ...id(event.id), body: { reason: reason.trim() || undefined } })),
                    ).then(() => setRejecting(null));
                  }}
                >
                  <div className="field">
                    <label htmlFor={`reason-${event.id}`}>Reason (mailed to the promoter)</label>
                    <textarea
                      id={`reason-${event.id}`}
                      rows={3}
                      maxLength={1000}
                      value={reason}
                      onChange={(e) => setReason(e.target.value)}
                    />
                  </div>
                  <div className="actions">
                    <button type="submit" className="button button--danger">
                      Reject
                    </button>
                    <button type="button" className="button" onClick={() => setRejecting(null)}>
                      Keep it
                    </button>
                  </div>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PromoterList({ venueId, canWrite, run }: { venueId: string; canWrite: boolean; run: Run }) {
  const promoters = useVenuePromoters(venueId);
  const [shares, setShares] = useState<Record<string, string>>({});
  const at = (promoterId: string) => ({ params: { path: { venueId, promoterId } } });
  const shareOf = (promoterId: string, current: number) => shares[promoterId] ?? String(current);
  const parsed = (text: string) => (/^\d{1,3}$/.test(text) && Number(text) <= 100 ? Number(text) : null);
  return (
    <section className="panel promoters__panel" aria-labelledby="promoters-title">
      <h2 id="promoters-title">Promoters</h2>
      {promoters.error && (
        <p className="error" role="alert">
          {messageOf(promoters.error)}
        </p>
      )}
      {promoters.data && promoters.data.length === 0 && <p>No promoters yet: invite one below.</p>}
      {promoters.data && promoters.data.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="promoters-title">
          <table className="promoters__table">
            <thead>
              <tr>
                <th scope="col">Promoter</th>
                <th scope="col">Status</th>
                <th scope="col">Share of ticket revenue</th>
                {canWrite && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {promoters.data.map((p) => {
                const share = shareOf(p.promoter_id, p.share_percent);
                const value = parsed(share);
                return (
                  <tr key={p.id}>
                    <td>
                      {p.promoter_name}
                      <div className="muted">{p.promoter_email}</div>
                    </td>
                    <td>
                      <span className={`status status--${p.status}`}>{words(p.status)}</span>
                    </td>
                    <td>
                      {canWrite && (p.status === 'active' || p.status === 'pending') ? (
                        <span className="promoters__share">
                          <input
                            aria-label={`Share for ${p.promoter_name}, percent`}
                            inputMode="numeric"
                            size={4}
                            value={share}
                            onChange={(e) => setShares({ ...shares, [p.promoter_id]: e.target.value })}
                          />
                          %
                          {p.status === 'active' && (
                            <button
                              type="button"
                              className="button"
                              disabled={value === null || value === p.share_percent}
                              onClick={() =>
                                void run(`${p.promoter_name}’s share is now ${value}%.`, () =>
                                  call(
                                    api.PATCH('/api/my-venues/{venueId}/promoters/{promoterId}', {
                                      ...at(p.promoter_id),
                                      body: { share_percent: value! },
                                    }),
                                  ),
                                )
                              }
                            >
                              Save
                            </button>
                          )}
                        </span>
                      ) : (
                        `${p.share_percent}%`
                      )}
                    </td>
                    {canWrite && (
                      <td>
                        <div className="actions">
                          {p.status === 'pending' && (
                            <>
                              <button
                                type="button"
                                className="button button--primary"
                                disabled={value === null}
                                onClick={() =>
                                  void run(`Accepted ${p.promoter_name}.`, () =>
                                    call(
                                      api.POST('/api/my-venues/{venueId}/promoters/{promoterId}/accept', {
                                        ...at(p.promoter_id),
                                        body: { share_percent: value ?? 0 },
                                      }),
                                    ),
                                  )
                                }
                              >
                                Accept
                              </button>
                              <button
                                type="button"
                                className="button"
                                onClick={() =>
                                  void run(`Declined ${p.promoter_name}.`, () =>
                                    call(api.POST('/api/my-venues/{venueId}/promoters/{promoterId}/decline', at(p.promoter_id))),
                                  )
                                }
                              >
                                Decline
                              </button>
                            </>
                          )}
                          {p.status === 'active' && (
                            <button
                              type="button"
                              className="button"
                              onClick={() =>
                                void run(`Ended the agreement with ${p.promoter_name}.`, () =>
                                  call(api.POST('/api/my-venues/{venueId}/promoters/{promoterId}/end', at(p.promoter_id))),
                                )
                              }
                            >
                              End agreement
                            </button>
                          )}
                        </div>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Invite({ venueId, run }: { venueId: string; run: Run }) {
  const invitations = usePromoterInvitations(venueId);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [share, setShare] = useState('10');

  function submit(event: FormEvent) {
    event.preventDefault();
    const percent = Number(share);
    void run(`Invitation mailed to ${email.trim()}.`, () =>
      call(
        api.POST('/api/my-venues/{venueId}/promoters/invitations', {
          params: { path: { venueId } },
          body: { name: name.trim(), email: email.trim(), share_percent: percent },
        }),
      ).then(() => {
        setName('');
        setEmail('');
      }),
    );
  }

  return (
    <section className="panel promoters__panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a promoter</h2>
      <form className="row-fields" onSubmit={submit}>
        <div className="field">
          <label htmlFor="invite-name">Name</label>
          <input id="invite-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="invite-email">Email</label>
          <input id="invite-email" type="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="invite-share">Share (%)</label>
          <input
            id="invite-share"
            type="number"
            min={0}
            max={100}
            step={1}
            required
            value={share}
            onChange={(e) => setShare(e.target.value)}
          />
        </div>
        <div className="field field--button">
          <button type="submit" className="button button--primary">
            Send invitation
          </button>
        </div>
      </form>
      {invitations.data && invitations.data.length > 0 && (
        <>
          <h3>Pending invitations</h3>
          <ul className="promoters__list">
            {invitations.data.map((invitation) => (
              <li key={invitation.id} className="promoters__item">
                <span>
                  {invitation.name} <span className="muted">{invitation.email}</span> · {invitation.share_percent}%
                </span>
                <button
                  type="button"
                  className="button"
                  aria-label={`Revoke the invitation to ${invitation.email}`}
                  onClick={() =>
                    void run('Invitation revoked.', () =>
                      call(
                        api.DELETE('/api/my-venues/{venueId}/promoters/invitations/{id}', {
                          params: { path: { venueId, id: invitation.id } },
                        }),
                      ),
                    )
                  }
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

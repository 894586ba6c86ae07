/**
 * Portal users: who can sign in to the portal, each with exactly one role. Adding a user sets their
 * sign-in email and a first password (shared with them privately), or an invitation by email lets them
 * choose their own (Invitations.tsx); editing changes their details, role or password; removing ends
 * their access. A user the caller may not manage (the primary contact, the
 * caller, or one whose role is beyond the caller's own) is shown read-only with the reason.
 */
import { useId, useState } from 'react';
import { api, call } from '../api/client';
import { Choice, ErrorNote, Field, FormError, useSave } from '../setup/availability/kit';
import { useSession } from '../shell/account';
import { InviteByEmail, PendingInvitations } from './Invitations';
import { beyondCaller, teamKey, usePortalUsers, type Permissions, type PortalUser, type Role } from './data';
import { ConfirmButton } from './ConfirmButton';

export function Users(props: { me: Permissions; canWrite: boolean; roles: Role[] | undefined }) {
  const { me, canWrite, roles } = props;
  const users = usePortalUsers();
  const { session } = useSession();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = useSave([teamKey('users'), teamKey('roles'), teamKey('members')]);
  const headingId = useId();
  const roleOf = (id: string | null) => roles?.find((r) => r.id === id);

  /** Why the caller may not change this user at all; undefined when they may. */
  const lockedReason = (user: PortalUser) => {
    const beyond = beyondCaller(me, roleOf(user.role_id));
    return beyond ? `Only an Owner can change ${user.name}: their role ${beyond.replace(/^it /, '')}.` : undefined;
  };
  const noRemoval = (user: PortalUser) =>
    user.id === session?.user.id
      ? 'You cannot remove yourself.'
      : user.is_primary_contact
        ? 'The account’s primary contact cannot be removed.'
        : undefined;

  return (
    <section className="setup-section" aria-labelledby={headingId} id="users">
      <div className="setup-section__head">
        <h2 id={headingId}>Portal users</h2>
        {canWrite && (
          <div className="setup-item__actions">
            <InviteByEmail me={me} roles={roles} />
            {editing !== 'new' && (
              <button type="button" className="button" onClick={() => setEditing('new')}>
                Add user
              </button>
            )}
          </div>
        )}
      </div>
      <p className="muted">Everyone who signs in to this portal. Each has one role, which decides what they see.</p>
      {!canWrite && <p className="team-note">Your role may see portal users but not change them.</p>}
      {editing === 'new' && <UserForm me={me} user={null} roles={roles} onDone={() => setEditing(null)} />}
      {users.isPending && <p className="muted">Loading…</p>}
      <ErrorNote failure={remove.failure} />
      <ul className="setup-list">
        {users.data?.map((user) => {
          const locked = lockedReason(user);
          const blocked = noRemoval(user);
          return (
            <li key={user.id} className="setup-item">
              {editing === user.id ? (
                <UserForm me={me} user={user} roles={roles} onDone={() => setEditing(null)} />
              ) : (
                <>
                  <div className="setup-item__main">
                    <strong>{user.name}</strong>
                    {user.id === session?.user.id && <span className="team-badge">You</span>}
                    {user.is_primary_contact && <span className="team-badge">Primary contact</span>}
                    <div className="setup-item__desc">
                      {user.email}
                      {user.phone && <> · {user.phone}</>} · {user.role_name ?? 'No role: can do nothing'}
                    </div>
                    {canWrite && locked && <p className="team-note">{locked}</p>}
                  </div>
                  {canWrite && !locked && (
                    <div className="setup-item__actions">
                      <button type="button" className="button" onClick={() => setEditing(user.id)} aria-label={`Edit ${user.name}`}>
                        Edit
                      </button>
                      {blocked ? (
                        <span className="team-grid__why">{blocked}</span>
                      ) : (
                        <ConfirmButton
                          armed={confirming === user.id}
                          busy={remove.busy}
                          onArm={() => setConfirming(user.id)}
                          onConfirm={() =>
                            void remove.run(
                              () => call(api.DELETE('/api/my-users/{id}', { params: { path: { id: user.id } } })),
                              () => setConfirming(null),
                            )
                          }
                          label="Remove access"
                          ariaLabel={`Remove ${user.name}`}
                          confirmLabel={`Really remove ${user.name}`}
                        />
                      )}
                    </div>
                  )}
                </>
              )}
            </li>
          );
        })}
      </ul>
      <PendingInvitations me={me} canWrite={canWrite} roles={roles} users={users.data} />
    </section>
  );
}

function UserForm(props: { me: Permissions; user: PortalUser | null; roles: Role[] | undefined; onDone: () => void }) {
  const { me, user, roles, onDone } = props;
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [phone, setPhone] = useState(user?.phone ?? '');
  const [password, setPassword] = useState('');
  // Roles the caller may give; the primary contact keeps the Owner role.
  const giveable = (roles ?? []).filter((r) => !beyondCaller(me, r));
  const [roleId, setRoleId] = useState(user?.role_id ?? giveable.find((r) => !r.is_system)?.id ?? '');
  const save = useSave([teamKey('users'), teamKey('roles'), teamKey('members')]);
  const withheld = (roles ?? []).length - giveable.length;

  const submit = () =>
    save.run(() => {
      if (!roleId) throw new FormError('Choose a role');
      if (!user) {
        if (password.length < 8) throw new FormError('The first password needs at least 8 characters');
        return call(api.POST('/api/my-users', { body: { name, email, password, role_id: roleId, phone: phone || null } }));
      }
      if (password && password.length < 8) throw new FormError('A new password needs at least 8 characters');
      return call(
        api.PUT('/api/my-users/{id}', {
          params: { path: { id: user.id } },
          body: { name, email, phone: phone || null, role_id: roleId, ...(password ? { password } : {}) },
        }),
      );
    }, onDone);

  const title = user ? `Edit ${user.name}` : 'New portal user';
  return (
    <form
      className="setup-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="row-fields">
        <Field label="Name" value={name} onChange={setName} required maxLength={200} autoComplete="off" />
        <Field label="Email" type="email" value={email} onChange={setEmail} required autoComplete="off" />
        <Field label="Phone (optional)" type="tel" value={phone} onChange={setPhone} autoComplete="off" />
      </div>
      <div className="row-fields">
        {user?.is_primary_contact ? (
          <p className="team-note">{user.name} is the primary contact and keeps the Owner role.</p>
        ) : (
          <Choice
            label="Role"
            value={roleId}
            onChange={setRoleId}
            options={[['', 'Choose a role…'] as const, ...giveable.map((r) => [r.id, r.name] as const)]}
          />
        )}
        <Field
          label={user ? 'New password (leave empty to keep)' : 'First password'}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          minLength={user ? undefined : 8}
        />
      </div>
      {withheld > 0 && !user?.is_primary_contact && (
        <p className="team-grid__why">
          {withheld} role{withheld === 1 ? ' is' : 's are'} not offered: only an Owner can give a role that reaches beyond your own.
        </p>
      )}
      {!user && <p className="muted">They sign in with this email and password; share the password with them privately.</p>}
      <ErrorNote failure={save.failure} />
      <div className="setup-form__actions">
        <button type="submit" className="button button--primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : user ? 'Save user' : 'Add user'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

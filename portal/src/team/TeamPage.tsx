/**
 * Team (`/team`): the account's members, its roles (the permission grid and venue scope of each), its
 * portal users and the signed-in user's own two-factor sign-in. Each part shows when the role may read
 * it (`operators.members`, `users.role`, `users.user`) and offers changes only with write; two-factor is
 * everyone's own.
 */
import { useCan, usePermissions } from '../shell/account';
import { Members } from './Members';
import { Roles } from './Roles';
import { TwoFactor } from './TwoFactor';
import { Users } from './Users';
import { useRoles, useScopeVenues } from './data';
import '../setup/availability/setup.css';
import './team.css';

export default function TeamPage() {
  const can = useCan();
  const me = usePermissions().data!;
  const readRoles = can('users.role', 'read');
  const readUsers = can('users.user', 'read');
  // The users' form offers roles, so it needs them too (a user manager without roles sees names only).
  const roles = useRoles(readRoles || readUsers);
  const venues = useScopeVenues(can('venues.settings', 'read'));
  const parts = [
    { id: 'users', title: 'Portal users', show: readUsers },
    { id: 'roles', title: 'Roles', show: readRoles },
    { id: 'members', title: 'Members', show: can('operators.members', 'read') },
    { id: 'two-factor', title: 'Two-factor sign-in', show: true },
  ].filter((p) => p.show);
  return (
    <main className="page setup team" id="main">
      <header>
        <h1>Team</h1>
        <p className="muted">
          Signed in with the role <strong>{me.role ?? 'none'}</strong>
          {me.is_owner ? ' (Owner: every permission at every venue)' : ''}.
        </p>
      </header>
      <nav aria-label="Team parts" className="setup-toc">
        {parts.map((p) => (
          <a key={p.id} href={`#${p.id}`}>
            {p.title}
          </a>
        ))}
      </nav>
      {readUsers && <Users me={me} canWrite={can('users.user', 'write')} roles={roles.data} />}
      {readRoles && <Roles me={me} canWrite={can('users.role', 'write')} venues={venues} />}
      {can('operators.members', 'read') && <Members canWrite={can('operators.members', 'write')} />}
      <TwoFactor />
    </main>
  );
}

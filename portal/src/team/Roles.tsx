/**
 * Roles: each role's permission grid (read and write per permission of the tree) and its venue scope.
 * A role the caller may not edit (the Owner role, or one beyond the caller's own) is shown read-only with
 * the reason; permissions and venues the caller cannot hand out are offered read-only too.
 */
import { useId, useState } from 'react';
import { api, call } from '../api/client';
import { ErrorNote, Field, useSave } from '../setup/availability/kit';
import { beyondCaller, teamKey, useRoles, type Permissions, type Role, type TreeNode } from './data';
import { ConfirmButton } from './ConfirmButton';

type Grant = { read: boolean; write: boolean };
type Grid = Record<string, Grant>;

const gridOf = (role: Role | null): Grid =>
  Object.fromEntries(
    (role?.permissions ?? []).map((row) => [row.permission_key, { read: row.can_read || row.can_write, write: row.can_write }]),
  );

/** The tree as rows: each node with its depth and its parent. */
function rowsOf(tree: TreeNode[]) {
  return tree.flatMap((node) => [
    { node, depth: 0, parent: undefined as TreeNode | undefined },
    ...(node.children ?? []).map((child) => ({ node: child as TreeNode, depth: 1, parent: node })),
  ]);
}

function scopeText(role: Role, venueName: (id: string) => string) {
  if (role.is_system || role.venue_ids.length === 0) return 'All venues';
  return role.venue_ids.map(venueName).join(', ');
}

export function Roles(props: { me: Permissions; canWrite: boolean; venues: { id: string; name: string }[] | undefined }) {
  const { me, canWrite, venues } = props;
  const roles = useRoles();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = useSave([teamKey('roles')]);
  const headingId = useId();
  const venueName = (id: string) => venues?.find((v) => v.id === id)?.name ?? 'a venue you cannot see';
  const labels = new Map(rowsOf(me.tree).map((r) => [r.node.key, r.node.label]));
  const summary = (role: Role) => {
    if (role.is_system) return 'Every permission';
    const granted = role.permissions.filter((p) => p.can_read || p.can_write);
    if (granted.length === 0) return 'No permissions yet';
    return granted.map((p) => `${labels.get(p.permission_key) ?? p.permission_key} (${p.can_write ? 'change' : 'see'})`).join(' · ');
  };
  return (
    <section className="setup-section" aria-labelledby={headingId} id="roles">
      <div className="setup-section__head">
        <h2 id={headingId}>Roles</h2>
        {canWrite && editing !== 'new' && (
          <button type="button" className="button" onClick={() => setEditing('new')}>
            New role
          </button>
        )}
      </div>
      <p className="muted">A role says what its users may see and change, and at which venues. Write includes read.</p>
      {!canWrite && <p className="team-note">Your role may see roles but not change them.</p>}
      {editing === 'new' && <RoleForm me={me} role={null} venues={venues} onDone={() => setEditing(null)} />}
      {roles.isPending && <p className="muted">Loading…</p>}
      <ErrorNote failure={remove.failure} />
      <ul className="setup-list">
        {roles.data?.map((role) => {
          const beyond = beyondCaller(me, role);
          const noDelete = role.is_system
            ? 'The Owner role cannot be deleted.'
            : role.user_count > 0
              ? `Held by ${role.user_count} user${role.user_count === 1 ? '' : 's'}: give them another role first to delete it.`
              : undefined;
          return (
            <li key={role.id} className="setup-item">
              {editing === role.id ? (
                <RoleForm me={me} role={role} venues={venues} onDone={() => setEditing(null)} />
              ) : (
                <>
                  <div className="setup-item__main">
                    <strong>{role.name}</strong>
                    {role.is_system && <span className="team-badge">System</span>}
                    <div className="setup-item__desc">
                      {role.description && <>{role.description} · </>}
                      {scopeText(role, venueName)} · {role.user_count} user{role.user_count === 1 ? '' : 's'}
                    </div>
                    <div className="setup-item__desc">{summary(role)}</div>
                    {canWrite && beyond && <p className="team-note">Only an Owner can change this role: {beyond}.</p>}
                    {canWrite && !beyond && noDelete && <p className="team-grid__why">{noDelete}</p>}
                  </div>
                  {canWrite && !beyond && (
                    <div className="setup-item__actions">
                      <button type="button" className="button" onClick={() => setEditing(role.id)} aria-label={`Edit ${role.name}`}>
                        Edit
                      </button>
                      {!noDelete && (
                        <ConfirmButton
                          armed={confirming === role.id}
                          busy={remove.busy}
                          onArm={() => setConfirming(role.id)}
                          onConfirm={() =>
                            void remove.run(
                              () => call(api.DELETE('/api/my-roles/{id}', { params: { path: { id: role.id } } })),
                              () => setConfirming(null),
                            )
                          }
                          label="Delete"
                          ariaLabel={`Delete ${role.name}`}
                          confirmLabel={`Really delete ${role.name}`}
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
    </section>
  );
}

/** Whether the caller may hand out `action` on `key` (an Owner may hand out anything). */
const mayGrant = (me: Permissions, key: string, action: 'read' | 'write') =>
  me.is_owner || Boolean((me.permissions as Record<string, Grant>)[key]?.[action]);

function RoleForm(props: { me: Permissions; role: Role | null; venues: { id: string; name: string }[] | undefined; onDone: () => void }) {
  const { me, role, venues, onDone } = props;
  const [createdId, setCreatedId] = useState<string | null>(null);
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [grid, setGrid] = useState<Grid>(() => gridOf(role));
  const [allVenues, setAllVenues] = useState(role ? role.venue_ids.length === 0 : me.venue_ids.length === 0);
  const [venueIds, setVenueIds] = useState<string[]>(role?.venue_ids ?? (me.venue_ids.length ? [...me.venue_ids] : []));
  const save = useSave([teamKey('roles'), teamKey('users')]);
  const system = role?.is_system ?? false;
  const rows = rowsOf(me.tree);

  function toggle(key: string, action: 'read' | 'write', on: boolean) {
    setGrid((current) => {
      const was = current[key] ?? { read: false, write: false };
      // Write includes read; taking read away takes write too.
      const next = action === 'write' ? { read: on || was.read, write: on } : { read: on, write: on && was.write };
      return { ...current, [key]: next };
    });
  }

  const submit = () =>
    save.run(async () => {
      let id = role?.id ?? createdId;
      if (!id) {
        id = (await call(api.POST('/api/my-roles', { body: { name, description } }))).id;
        setCreatedId(id);
      }
      const body = system
        ? { name, description }
        : {
            name,
            description,
            permissions: Object.entries(grid)
              .filter(([, g]) => g.read || g.write)
              .map(([permission_key, g]) => ({ permission_key, can_read: g.read, can_write: g.write })),
            venue_ids: allVenues ? [] : venueIds,
          };
      await call(api.PUT('/api/my-roles/{id}', { params: { path: { id } }, body }));
    }, onDone);

  const title = role ? `Edit ${role.name}` : 'New role';
  return (
    <form
      className="setup-form team-role-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="row-fields">
        <Field label="Role name" value={name} onChange={setName} required maxLength={100} />
        <Field label="Description (optional)" value={description} onChange={setDescription} maxLength={500} />
      </div>
      {createdId && <p className="team-note">The role was created; its permissions are not saved yet.</p>}
      {system ? (
        <p className="team-note">The Owner role holds every permission at every venue; only its name and description can change.</p>
      ) : (
        <>
          <div className="team-grid-wrap">
            <table className="team-grid">
              <caption>Permissions</caption>
              <thead>
                <tr>
                  <th scope="col">Permission</th>
                  <th scope="col">Read</th>
                  <th scope="col">Write</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ node, depth, parent }) => {
                  const own = grid[node.key] ?? { read: false, write: false };
                  const inherited = parent ? (grid[parent.key] ?? { read: false, write: false }) : { read: false, write: false };
                  return (
                    <tr key={node.key} className={depth ? 'team-grid__child' : 'team-grid__parent'}>
                      <th scope="row">
                        {node.label}
                        <span className="team-grid__key"> {node.key}</span>
                      </th>
                      {(['read', 'write'] as const).map((action) => {
                        const fromParent = inherited[action];
                        const allowed = mayGrant(me, node.key, action);
                        const checked = own[action] || fromParent;
                        const reason = fromParent
                          ? `given by ${parent!.label}`
                          : !allowed && !own[action]
                            ? 'your role may not give this'
                            : undefined;
                        return (
                          <td key={action}>
                            <label className="team-grid__cell">
                              <input
                                type="checkbox"
                                checked={checked}
                                disabled={Boolean(fromParent) || (!allowed && !own[action])}
                                onChange={(e) => toggle(node.key, action, e.target.checked)}
                                aria-label={`${node.label}: ${action}`}
                              />
                              {reason && <span className="team-grid__why">{reason}</span>}
                            </label>
                          </td>
                        );
                      })}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <fieldset className="team-scope">
            <legend>Venues</legend>
            <label className="setup-check">
              <input
                type="radio"
                name="scope"
                checked={allVenues}
                disabled={me.venue_ids.length > 0 && !me.is_owner}
                onChange={() => setAllVenues(true)}
              />
              All venues, including ones added later
            </label>
            {me.venue_ids.length > 0 && !me.is_owner && (
              <span className="team-grid__why">Your own role is limited to some venues, so you cannot give all venues.</span>
            )}
            <label className="setup-check">
              <input type="radio" name="scope" checked={!allVenues} onChange={() => setAllVenues(false)} />
              Only these venues
            </label>
            {!allVenues && (
              <div className="team-scope__venues">
                {venues?.map((venue) => {
                  const reachable = me.is_owner || me.venue_ids.length === 0 || me.venue_ids.includes(venue.id);
                  return (
                    <label key={venue.id} className="setup-check">
                      <input
                        type="checkbox"
                        checked={venueIds.includes(venue.id)}
                        disabled={!reachable}
                        onChange={(e) =>
                          setVenueIds((ids) => (e.target.checked ? [...ids, venue.id] : ids.filter((id) => id !== venue.id)))
                        }
                      />
                      {venue.name}
                    </label>
                  );
                })}
              </div>
            )}
          </fieldset>
        </>
      )}
      <ErrorNote failure={save.failure} />
      <div className="setup-form__actions">
        <button type="submit" className="button button--primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : role || createdId ? 'Save role' : 'Create role'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

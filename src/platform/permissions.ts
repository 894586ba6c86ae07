/**
 * The permission catalogue: a dotted tree, read/write per key. A grant on a parent covers its
 * children, write implies read, and the system Owner role holds everything.
 */
export type Action = 'read' | 'write';
export type PermissionRequirement = `${string}:${Action}`;

export interface PermissionNode {
  key: string;
  label: string;
  actions: Action[];
  children?: PermissionNode[];
}

const rw: Action[] = ['read', 'write'];
const leaf = (key: string, label: string): PermissionNode => ({ key, label, actions: rw });

export const PERMISSION_TREE: PermissionNode[] = [
  {
    key: 'operators',
    label: 'Account',
    actions: rw,
    children: [
      leaf('operators.settings', 'Account settings and payouts'),
      leaf('operators.members', 'Team members'),
      leaf('operators.audit', 'Audit log'),
    ],
  },
  {
    key: 'users',
    label: 'Users',
    actions: rw,
    children: [leaf('users.role', 'Roles and permissions'), leaf('users.user', 'Portal users')],
  },
  {
    key: 'venues',
    label: 'Venues',
    actions: rw,
    children: [
      leaf('venues.settings', 'Venue details, status and listing'),
      leaf('venues.branding', 'Branding and widgets'),
      leaf('venues.sisters', 'Sister venues'),
    ],
  },
  leaf('availability', 'Availability: periods, shifts, access rules, blackouts'),
  leaf('tables', 'Floorplan, tables, blocks and price lists'),
  leaf('profiles', 'Profiles, admission rules and policies'),
  leaf('catalogue', 'Bundles, promo codes, tags and copying settings'),
  leaf('guests', 'Guest CRM'),
  leaf('bookings', 'Reservations and the door'),
  leaf('events', 'Events and tickets'),
  leaf('vouchers', 'Gift vouchers'),
  leaf('payouts', 'Payouts'),
  leaf('stats', 'Stats and dashboard'),
];

function flatten(nodes: PermissionNode[]): string[] {
  return nodes.flatMap((node) => [node.key, ...flatten(node.children ?? [])]);
}

export const PERMISSION_KEYS: readonly string[] = flatten(PERMISSION_TREE);
const KNOWN = new Set(PERMISSION_KEYS);

export const isPermissionKey = (key: string) => KNOWN.has(key);

export interface Grant {
  read: boolean;
  write: boolean;
}

export type Grants = ReadonlyMap<string, Grant>;

/** Grants from stored rows; write implies read. */
export function grantsFromRows(rows: { permission_key: string; can_read: number | boolean; can_write: number | boolean }[]): Grants {
  const grants = new Map<string, Grant>();
  for (const row of rows) {
    const write = Boolean(row.can_write);
    grants.set(row.permission_key, { read: write || Boolean(row.can_read), write });
  }
  return grants;
}

/** True when the key, or one of its ancestors, grants the action. */
export function allows(grants: Grants, key: string, action: Action, isOwner = false): boolean {
  if (isOwner) return true;
  const parts = key.split('.');
  for (let i = parts.length; i > 0; i--) {
    const grant = grants.get(parts.slice(0, i).join('.'));
    if (grant && grant[action]) return true;
  }
  return false;
}

/** The effective `{ key: { read, write } }` map over the whole catalogue. */
export function effectivePermissions(grants: Grants, isOwner: boolean): Record<string, Grant> {
  return Object.fromEntries(
    PERMISSION_KEYS.map((key) => [key, { read: allows(grants, key, 'read', isOwner), write: allows(grants, key, 'write', isOwner) }]),
  );
}

export function parseRequirement(requirement: PermissionRequirement): { key: string; action: Action } {
  const index = requirement.lastIndexOf(':');
  const key = requirement.slice(0, index);
  const action = requirement.slice(index + 1) as Action;
  if (!isPermissionKey(key)) throw new Error(`Unknown permission key "${key}"`);
  return { key, action };
}

/**
 * The first grant in `grid` that the caller does not hold themself, or undefined when the caller holds
 * them all. Nobody but an Owner may hand out more than they have (privilege escalation).
 */
export function exceedsCaller(
  caller: { grants: Grants; isOwner: boolean },
  grid: { permission_key: string; can_read: number | boolean; can_write: number | boolean }[],
): string | undefined {
  if (caller.isOwner) return undefined;
  for (const row of grid) {
    if (row.can_write && !allows(caller.grants, row.permission_key, 'write')) return `${row.permission_key}:write`;
    if (row.can_read && !allows(caller.grants, row.permission_key, 'read')) return `${row.permission_key}:read`;
  }
  return undefined;
}

/** True when a role scoped to `venueIds` ([] = every venue) reaches no venue beyond the caller's scope. */
export function scopeWithinCaller(caller: { venueScope: string[] | null; isOwner: boolean }, venueIds: string[]): boolean {
  if (caller.isOwner || caller.venueScope === null) return true;
  return venueIds.length > 0 && venueIds.every((id) => caller.venueScope!.includes(id));
}

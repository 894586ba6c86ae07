/**
 * The team screens' data: roles, portal users, members, the caller's two-factor state and the venues a
 * role can be scoped to; and which roles lie beyond the caller (the server's rule, so a form the server
 * would refuse is shown read-only with the reason instead).
 */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { type usePermissions, useSession, useVenues } from '../shell/account';

export const teamKey = (what: string) => ['team', what];

export function useRoles(enabled = true) {
  return useQuery({
    queryKey: teamKey('roles'),
    queryFn: async () => (await call(api.GET('/api/my-roles'))).data,
    enabled,
  });
}

export function usePortalUsers(enabled = true) {
  return useQuery({
    queryKey: teamKey('users'),
    queryFn: async () => (await call(api.GET('/api/my-users'))).data,
    enabled,
  });
}

/** Pending invitations (an extension: not accepted, revoked or expired). */
export function useInvitations(enabled = true) {
  return useQuery({
    queryKey: teamKey('invitations'),
    queryFn: async () => (await call(api.GET('/api/my-users/invitations'))).data,
    enabled,
  });
}

export function useMembers(enabled = true) {
  return useQuery({
    queryKey: teamKey('members'),
    queryFn: async () => (await call(api.GET('/api/my-operator/members'))).data,
    enabled,
  });
}

export function useTwoFactor() {
  const { session } = useSession();
  return useQuery({
    queryKey: ['two-factor', session?.user.id],
    queryFn: () => call(api.GET('/api/2fa')),
  });
}

/**
 * The venues a role may be scoped to: every venue the caller's role reaches (`/api/my-venues` with the
 * venue settings permission, else the venues of the floor, which need bookings only).
 */
export function useScopeVenues(canReadSettings: boolean) {
  const floor = useVenues();
  const all = useQuery({
    queryKey: teamKey('venues'),
    queryFn: async () => (await call(api.GET('/api/my-venues'))).data.map((v) => ({ id: v.id, name: v.name })),
    enabled: canReadSettings,
  });
  return canReadSettings ? all.data : floor.data?.map((v) => ({ id: v.id, name: v.name }));
}

export type Role = NonNullable<ReturnType<typeof useRoles>['data']>[number];
export type PortalUser = NonNullable<ReturnType<typeof usePortalUsers>['data']>[number];
export type Member = NonNullable<ReturnType<typeof useMembers>['data']>[number];
export type Permissions = NonNullable<ReturnType<typeof usePermissions>['data']>;
export type TreeNode = Permissions['tree'][number];
type Grid = { permission_key: string; can_read: boolean; can_write: boolean }[];

/** True when the key, or one of its ancestors, is granted to the caller (the map is already effective). */
const holds = (me: Permissions, key: string, action: 'read' | 'write') =>
  Boolean((me.permissions as Record<string, { read: boolean; write: boolean }>)[key]?.[action]);

/**
 * Why a role (its grid and venue scope) is beyond the caller, as the end of a sentence; undefined when the
 * caller may hand it out, edit it or manage its holders. Mirrors the server's rule (`authority.ts`).
 */
export function beyondCaller(me: Permissions, role: { is_system: boolean; permissions: Grid; venue_ids: string[] } | undefined) {
  if (me.is_owner || !role) return undefined;
  if (role.is_system) return 'it is the Owner role';
  for (const row of role.permissions) {
    if (row.can_write && !holds(me, row.permission_key, 'write')) return `it may change ${row.permission_key}, which your role may not`;
    if (row.can_read && !holds(me, row.permission_key, 'read')) return `it may see ${row.permission_key}, which your role may not`;
  }
  const grantsAnything = role.permissions.some((row) => row.can_read || row.can_write);
  const withinScope = me.venue_ids.length === 0 || (role.venue_ids.length > 0 && role.venue_ids.every((id) => me.venue_ids.includes(id)));
  if (grantsAnything && !withinScope) return 'it reaches venues beyond your own';
  return undefined;
}

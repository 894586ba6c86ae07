/** TypeBox schemas of the team module: operator, dashboard, permissions, members, roles, portal users. */
import { Type, type Static } from 'typebox';
import { Email, IdText, Nullable, Toggle } from '../../platform/http.js';
import { PERMISSION_KEYS } from '../../platform/permissions.js';

/** Free text that clears when sent as null or ''. */
const ClearableText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

// ── Operator ────────────────────────────────────────────────────────────────────────────────────

export const Operator = Type.Object({
  id: Type.String(),
  name: Type.String(),
  company_name: Nullable(Type.String()),
  company_reg: Nullable(Type.String()),
  vat_number: Nullable(Type.String()),
  status: Type.String({ description: 'e.g. `active`' }),
  payment_connect_status: Type.String({ description: 'payout onboarding status as cached on the operator' }),
});
export type Operator = Static<typeof Operator>;

export const OperatorBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  company_name: ClearableText(200),
  company_reg: ClearableText(100),
  vat_number: ClearableText(50),
});
export type OperatorBody = Static<typeof OperatorBody>;

// ── Dashboard ───────────────────────────────────────────────────────────────────────────────────

export const Dashboard = Type.Object({
  operator: Operator,
  payout_status: Type.Object({ provider: Type.String(), status: Type.String(), source: Type.String() }),
  stats: Type.Object({
    venues: Type.Integer({ description: 'venues the caller can reach' }),
    total_guests: Type.Integer({ description: 'distinct guests with a live booking at those venues' }),
    month_guests: Type.Integer({ description: 'the same, for bookings dated in the current month (each venue’s own, in its time zone)' }),
    revenue: Type.Integer({ description: 'net revenue in pence this month (each venue’s own, in its time zone)' }),
  }),
  staff_summary: Type.Object({ count: Type.Integer({ description: 'portal (client) users of the account' }) }),
  venues: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), status: Type.String() })),
});

// ── Permissions ─────────────────────────────────────────────────────────────────────────────────

const Grant = Type.Object({ read: Type.Boolean(), write: Type.Boolean() });
const Actions = Type.Array(Type.Union([Type.Literal('read'), Type.Literal('write')]));
// The catalogue is two levels deep; the tree test fails if a deeper level would be dropped here.
const PermissionLeaf = Type.Object({ key: Type.String(), label: Type.String(), actions: Actions });
const PermissionNode = Type.Object({
  key: Type.String(),
  label: Type.String(),
  actions: Actions,
  children: Type.Optional(Type.Array(PermissionLeaf)),
});

export const MyPermissions = Type.Object({
  role: Nullable(Type.String({ description: 'name of the caller’s role' })),
  role_id: Nullable(Type.String()),
  is_owner: Type.Boolean(),
  venue_ids: Type.Array(Type.String(), { description: 'the role’s venue scope; empty means every venue' }),
  portal: Type.Literal('client'),
  permissions: Type.Object(Object.fromEntries(PERMISSION_KEYS.map((key) => [key, Grant]))),
  tree: Type.Array(PermissionNode),
});

// ── Members ─────────────────────────────────────────────────────────────────────────────────────

const MemberRole = Type.String({ minLength: 1, maxLength: 50, description: 'a label; default `member`' });

export const Member = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  role: Type.String(),
  name: Type.String(),
  email: Type.String(),
  created_at: Type.String(),
});
export const MemberList = Type.Object({ data: Type.Array(Member) });

export const MemberCreateBody = Type.Object({ user_id: IdText, role: Type.Optional(MemberRole) });
export type MemberCreateBody = Static<typeof MemberCreateBody>;
export const MemberUpdateBody = Type.Object({ role: MemberRole });

export const UsersSearchQuery = Type.Object({ q: Type.String({ minLength: 2, maxLength: 100 }) });
export const UserCandidates = Type.Object({
  data: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() })),
});

// ── Roles ───────────────────────────────────────────────────────────────────────────────────────

const RoleName = Type.String({ minLength: 1, maxLength: 100 });

export const Role = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  is_system: Type.Boolean({ description: 'the account’s Owner role: every permission, not deletable' }),
  permissions: Type.Array(Type.Object({ permission_key: Type.String(), can_read: Type.Boolean(), can_write: Type.Boolean() })),
  venue_ids: Type.Array(Type.String(), { description: 'empty means every venue of the account' }),
  user_count: Type.Integer(),
});
export type Role = Static<typeof Role>;
export const RoleList = Type.Object({ data: Type.Array(Role) });

export const RoleCreateBody = Type.Object({ name: RoleName, description: ClearableText(500) });
export type RoleCreateBody = Static<typeof RoleCreateBody>;

const PermissionInput = Type.Object({
  permission_key: Type.String({ minLength: 1, maxLength: 100 }),
  can_read: Type.Optional(Toggle),
  // can_write implies can_read when stored.
  can_write: Type.Optional(Toggle),
});

export const RoleUpdateBody = Type.Object({
  name: RoleName,
  description: ClearableText(500),
  // One entry per permission of the catalogue at most (a key sent twice is refused by the service).
  permissions: Type.Optional(Type.Array(PermissionInput, { maxItems: PERMISSION_KEYS.length, description: 'replaces the grid' })),
  venue_ids: Type.Optional(
    Type.Array(IdText, { uniqueItems: true, maxItems: 500, description: 'replaces the venue scope; empty: every venue' }),
  ),
});
export type RoleUpdateBody = Static<typeof RoleUpdateBody>;

// ── Portal users ────────────────────────────────────────────────────────────────────────────────

const PersonName = Type.String({ minLength: 1, maxLength: 200 });
const Phone = Type.String({ maxLength: 50 });

export const PortalUser = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String()),
  role_id: Nullable(Type.String()),
  role_name: Nullable(Type.String()),
  is_primary_contact: Type.Boolean(),
  created_at: Type.String(),
});
export const PortalUserList = Type.Object({ data: Type.Array(PortalUser) });

export const PortalUserCreateBody = Type.Object({
  name: PersonName,
  email: Email,
  password: Type.String({ minLength: 8, maxLength: 200 }),
  role_id: IdText,
  phone: Type.Optional(Nullable(Phone)),
});
export type PortalUserCreateBody = Static<typeof PortalUserCreateBody>;

export const PortalUserUpdateBody = Type.Object({
  name: Type.Optional(PersonName),
  email: Type.Optional(Email),
  // Empty keeps the current password; otherwise at least 8 characters (checked by the service).
  password: Type.Optional(Type.String({ maxLength: 200 })),
  phone: Type.Optional(Nullable(Phone)),
  role_id: Type.Optional(IdText),
});
export type PortalUserUpdateBody = Static<typeof PortalUserUpdateBody>;

// ── Invitations ─────────────────────────────────────────────────────────────────────────────────

export const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role_id: Type.String(),
  invited_by: Nullable(Type.String({ description: 'the inviting user’s id; null once that user is deleted' })),
  created_at: Type.String(),
  expires_at: Type.String({ description: '7 days after `created_at`' }),
});
export const InvitationList = Type.Object({ data: Type.Array(Invitation) });

export const InvitationCreateBody = Type.Object({ email: Email, name: PersonName, role_id: IdText });
export type InvitationCreateBody = Static<typeof InvitationCreateBody>;

export const InvitationTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const InvitationPreview = Type.Object({
  operator_name: Type.String({ description: 'the inviting account' }),
  invited_by_name: Nullable(Type.String({ description: 'who invited; null once their user is deleted' })),
  email: Type.String({ description: 'the sign-in email the user gets' }),
  name: Type.String(),
  role_name: Type.String(),
  expires_at: Type.String(),
});

export const InvitationAcceptBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 8, maxLength: 200 }),
});

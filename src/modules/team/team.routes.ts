/**
 * The team module's routes: the caller's operator record and dashboard, their effective permissions,
 * team members, roles with their permission grid and venue scope, and portal users.
 */
import { authOf, operatorIdOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, IdParams, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { InvitationsService } from './invitations.service.js';
import { callerOf } from './caller.js';
import { invitationsRoutes } from './invitations.routes.js';
import type { MembersService } from './members.service.js';
import type { OperatorService } from './operator.service.js';
import type { PortalUsersService } from './portal-users.service.js';
import type { RolesService } from './roles.service.js';
import {
  Dashboard,
  MemberCreateBody,
  MemberList,
  MemberUpdateBody,
  MyPermissions,
  Operator,
  OperatorBody,
  PortalUserCreateBody,
  PortalUserList,
  PortalUserUpdateBody,
  Role,
  RoleCreateBody,
  RoleList,
  RoleUpdateBody,
  UserCandidates,
  UsersSearchQuery,
} from './team.schemas.js';

const security = [{ bearer: [] }];

export interface TeamServices {
  operators: OperatorService;
  members: MembersService;
  roles: RolesService;
  users: PortalUsersService;
  invitations: InvitationsService;
}

export const teamRoutes: RoutePlugin<TeamServices & { guard: GuardFactory }> = async (
  app,
  { guard, operators, members, roles, users, invitations },
) => {
  // ── Operator, dashboard, permissions ──────────────────────────────────────────────────────────
  app.get(
    '/api/my-operator',
    {
      schema: {
        summary: "The caller's operator account",
        tags: ['operator'],
        security,
        response: { 200: Operator, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: 'operators.settings:read' }),
    },
    async (request) => operators.get(operatorIdOf(request)),
  );

  app.put(
    '/api/my-operator',
    {
      schema: {
        summary: "Update the caller's operator account",
        tags: ['operator'],
        security,
        description: '`company_name`, `company_reg` and `vat_number` are cleared by null or an empty string; omitted fields stay.',
        body: OperatorBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403) },
      },
      onRequest: guard({ permission: 'operators.settings:write' }),
    },
    async (request) => {
      await operators.update(operatorIdOf(request), request.body);
      return { success: true };
    },
  );

  app.get(
    '/api/client/dashboard',
    {
      schema: {
        summary: 'The operator dashboard: account, payouts, figures and venues',
        tags: ['operator'],
        security,
        description:
          'Figures cover the venues the caller’s role can reach; "month" is each venue’s current calendar month in its own time zone.',
        response: { 200: Dashboard, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: 'stats:read' }),
    },
    async (request) => operators.dashboard(callerOf(request)),
  );

  app.get(
    '/api/me/permissions',
    {
      schema: {
        summary: "The caller's effective permissions and the permission tree",
        tags: ['permissions'],
        security,
        description: 'The caller’s effective permissions over the whole catalogue and the catalogue tree. Supports If-None-Match (304).',
        response: { 200: MyPermissions, ...errorResponses(401, 403) },
      },
      config: { etag: true },
      onRequest: guard(),
    },
    async (request) => operators.myPermissions(authOf(request)),
  );

  // ── Members ───────────────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/my-operator/members',
    {
      schema: {
        summary: "List the account's members",
        tags: ['members'],
        security,
        description:
          'The people listed on the account’s team, with their label. A member may be a user of another account: ' +
          'membership is a listing only, it gives no access to this account and no role here.',
        response: { 200: MemberList, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: 'operators.members:read' }),
    },
    async (request) => members.list(operatorIdOf(request)),
  );

  app.get(
    '/api/my-operator/users-search',
    {
      schema: {
        summary: 'Search portal users who could become members',
        tags: ['members'],
        security,
        description:
          'Candidates not yet members, at most 20, as id, name and email only: the account’s portal users whose name or email ' +
          'contains `q` (at least 2 characters, any case), and, first, the operator-side user of any account whose email is ' +
          'exactly `q` (any case). Another account’s users are never found by part of a name or email; guests never.',
        querystring: UsersSearchQuery,
        response: { 200: UserCandidates, ...errorResponses(400, 401, 403) },
      },
      onRequest: guard({ permission: 'operators.members:read' }),
    },
    async (request) => members.searchCandidates(operatorIdOf(request), request.query.q),
  );

  app.post(
    '/api/my-operator/members',
    {
      schema: {
        summary: 'Add a member to the account',
        tags: ['members'],
        security,
        description:
          '`user_id` is an operator-side user of this or another account (as found by users-search); guests and unknown ids: 404. ' +
          'A user of another account joins this team as a listing: they stay in their own account and get no role here.',
        body: MemberCreateBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'operators.members:write' }),
    },
    async (request) => ({ success: true, id: await members.add(operatorIdOf(request), request.body) }),
  );

  app.put(
    '/api/my-operator/members/:id',
    {
      schema: {
        summary: "Change a member's role",
        tags: ['members'],
        security,
        params: IdParams,
        body: MemberUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'operators.members:write' }),
    },
    async (request) => {
      await members.updateRole(operatorIdOf(request), request.params.id, request.body.role);
      return { success: true };
    },
  );

  app.delete(
    '/api/my-operator/members/:id',
    {
      schema: {
        summary: 'Remove a member from the account',
        tags: ['members'],
        security,
        description: 'The account’s primary contact cannot be removed (400).',
        params: IdParams,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'operators.members:write' }),
    },
    async (request) => {
      await members.remove(operatorIdOf(request), request.params.id);
      return { success: true };
    },
  );

  // ── Roles ─────────────────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/my-roles',
    {
      schema: { summary: "List the account's roles", tags: ['roles'], security, response: { 200: RoleList, ...errorResponses(401, 403) } },
      onRequest: guard({ permission: 'users.role:read' }),
    },
    async (request) => roles.list(operatorIdOf(request)),
  );

  app.get(
    '/api/my-roles/:id',
    {
      schema: {
        summary: 'Read a role with its permission grid and venue scope',
        tags: ['roles'],
        security,
        params: IdParams,
        response: { 200: Role, ...errorResponses(401, 403, 404) },
      },
      onRequest: guard({ permission: 'users.role:read' }),
    },
    async (request) => roles.get(operatorIdOf(request), request.params.id),
  );

  app.post(
    '/api/my-roles',
    {
      schema: {
        summary: 'Create a role',
        tags: ['roles'],
        security,
        description:
          'A new role has an empty permission grid and every venue in scope (`venue_ids` empty). Names are unique per account (409).',
        body: RoleCreateBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 409) },
      },
      onRequest: guard({ permission: 'users.role:write' }),
    },
    async (request) => ({ success: true, id: await roles.create(operatorIdOf(request), request.body) }),
  );

  app.put(
    '/api/my-roles/:id',
    {
      schema: {
        summary: 'Update a role, its permission grid and venue scope',
        tags: ['roles'],
        security,
        description:
          '`permissions` and `venue_ids`, when given, replace the grid and the venue scope. `can_write` implies `can_read`. ' +
          'The Owner role takes only `name` and `description`, and only from an Owner. Only an Owner edits a role beyond the ' +
          'caller’s own (granting something the caller lacks, or granting anything on a venue outside the caller’s scope): 403. ' +
          'Nobody grants more than they hold nor lets a role that grants anything reach venues beyond their own (403).',
        params: IdParams,
        body: RoleUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'users.role:write' }),
    },
    async (request) => {
      await roles.update(authOf(request), operatorIdOf(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    '/api/my-roles/:id',
    {
      schema: {
        summary: 'Delete a role',
        tags: ['roles'],
        security,
        description:
          'The Owner role cannot be deleted (400; 403 for a non-Owner); a role still held by users cannot either (409). ' +
          'Only an Owner deletes a role beyond the caller’s own (403).',
        params: IdParams,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'users.role:write' }),
    },
    async (request) => {
      await roles.remove(authOf(request), operatorIdOf(request), request.params.id);
      return { success: true };
    },
  );

  // ── Portal users ──────────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/my-users',
    {
      schema: {
        summary: "List the account's portal users",
        tags: ['portal-users'],
        security,
        response: { 200: PortalUserList, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: 'users.user:read' }),
    },
    async (request) => users.list(operatorIdOf(request)),
  );

  app.post(
    '/api/my-users',
    {
      schema: {
        summary: 'Create a portal user',
        tags: ['portal-users'],
        security,
        description:
          'Creates a portal user holding `role_id` and lists them as a team member. Only an Owner may give the Owner role, or a ' +
          'role granting something the caller lacks or reaching venues beyond the caller’s (403).',
        body: PortalUserCreateBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 409) },
      },
      onRequest: guard({ permission: 'users.user:write' }),
    },
    async (request) => ({ success: true, id: await users.create(callerOf(request), request.body) }),
  );

  app.put(
    '/api/my-users/:id',
    {
      schema: {
        summary: 'Update a portal user',
        tags: ['portal-users'],
        security,
        description:
          'Any subset of the fields. An empty `password` keeps the current one; a new one signs the user out of their other sessions. ' +
          'The primary contact keeps the Owner role. Only an Owner changes (name, email, password, role) a user whose current ' +
          'role is the Owner role, grants something the caller lacks, or grants anything on a venue outside the caller’s scope (403), ' +
          'and only an Owner gives such a role. A user without a role can do nothing and may be managed like a weaker one.',
        params: IdParams,
        body: PortalUserUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'users.user:write' }),
    },
    async (request) => {
      await users.update(callerOf(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    '/api/my-users/:id',
    {
      schema: {
        summary: 'Delete a portal user',
        tags: ['portal-users'],
        security,
        description:
          'Removes the user, their sessions and their memberships. Nobody deletes themself or the primary contact (400); only an ' +
          'Owner deletes a user whose role is beyond the caller’s own (403, as for changes).',
        params: IdParams,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'users.user:write' }),
    },
    async (request) => {
      await users.remove(callerOf(request), request.params.id);
      return { success: true };
    },
  );
  await app.register(invitationsRoutes, { guard, invitations });
};

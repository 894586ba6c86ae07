/**
 * Invitations by email (an extension beyond the spec: docs/portal-api.md): the account's routes under
 * /api/my-users/invitations, and the public ones the invitee's link uses (the token is the credential).
 */
import { Type } from 'typebox';
import { operatorIdOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, IdParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { InvitationsService } from './invitations.service.js';
import { callerOf } from './caller.js';
import {
  Invitation,
  InvitationAcceptBody,
  InvitationCreateBody,
  InvitationList,
  InvitationPreview,
  InvitationTokenParams,
} from './team.schemas.js';

const security = [{ bearer: [] }];

export const invitationsRoutes: RoutePlugin<{ guard: GuardFactory; invitations: InvitationsService }> = async (
  app,
  { guard, invitations },
) => {
  app.get(
    '/api/my-users/invitations',
    {
      schema: {
        summary: "List the account's pending invitations",
        tags: ['portal-users'],
        security,
        description: 'Invitations not yet accepted, revoked or expired, oldest first.',
        response: { 200: InvitationList, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: 'users.user:read' }),
    },
    async (request) => invitations.list(operatorIdOf(request)),
  );

  app.post(
    '/api/my-users/invitations',
    {
      schema: {
        summary: 'Invite someone by email to become a portal user',
        tags: ['portal-users'],
        security,
        description:
          'Mails a link (`/app/invitation?token=…`, good for 7 days and once) with which the invitee chooses a password and ' +
          'becomes a portal user holding `role_id`. The same authority as creating that user: only an Owner may give the Owner ' +
          'role, or a role granting something the caller lacks or reaching venues beyond the caller’s (403). A role of another ' +
          'account: 404. An email that already has an account, or a pending invitation of this account: 409.',
        body: InvitationCreateBody,
        response: { 201: Invitation, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'users.user:write' }),
    },
    async (request, reply) => {
      const invitation = await invitations.create(callerOf(request), request.body);
      return reply.code(201).send(invitation);
    },
  );

  app.delete(
    '/api/my-users/invitations/:id',
    {
      schema: {
        summary: 'Revoke a pending invitation',
        tags: ['portal-users'],
        security,
        description:
          'Its link stops working. Not a pending invitation of this account: 404. Only an Owner revokes an invitation to a role ' +
          'beyond the caller’s own (403, as for deleting a user holding it).',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(401, 403, 404) },
      },
      onRequest: guard({ permission: 'users.user:write' }),
    },
    async (request, reply) => {
      await invitations.revoke(callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/invitations/:token',
    {
      schema: {
        summary: 'Read an invitation by the token of its link',
        tags: ['portal-users'],
        description: 'Public (the link is the credential). Unknown, accepted, revoked or expired: 404.',
        params: InvitationTokenParams,
        response: { 200: InvitationPreview, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return invitations.preview(request.params.token);
    },
  );

  app.post(
    '/api/invitations/accept',
    {
      schema: {
        summary: 'Accept an invitation: create the portal user with a password',
        tags: ['portal-users'],
        description:
          'Public (the link is the credential). Creates the portal user with the invitation’s email, name and role, as ' +
          '`POST /api/my-users` does, and uses the invitation up; then sign in with `POST /api/auth/login`. Unknown, accepted, ' +
          'revoked or expired: 404. The email has meanwhile become an account: 409.',
        body: InvitationAcceptBody,
        response: { 201: CreatedBody, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const id = await invitations.accept(request.body.token, request.body.password);
      return reply.code(201).header('Cache-Control', 'private, no-store').send({ success: true, id });
    },
  );
};

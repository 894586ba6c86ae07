/**
 * Promoters (an extension: docs/promoters.md). The venue's routes under /api/my-venues/:venueId/promoters
 * (permission `events`), the promoter's under /api/promoter (a signed-in `promoter` user: anyone else 403),
 * and the public invitation and sign-up routes. A promoter reads stats, the door list and the conflict
 * check of their own events through the spec's events routes, which accept an organiser.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, IdParams, SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { forbidden } from '../../platform/errors.js';
import { EventCreateBody, EventRecord, EventUpdateBody } from '../events/index.js';
import {
  AcceptRequestBody,
  AgreementList,
  Earnings,
  InvitationAcceptBody,
  InvitationPreview,
  PromoterEventCreated,
  PromoterInvitation,
  PromoterInvitationList,
  PromoterInviteBody,
  PromoterSession,
  RegisterBody,
  SalesList,
  ShareBody,
  SignUpAccepted,
  SignUpVerifyBody,
  SubmissionList,
  TokenParams,
  VenueInvitationParams,
  VenuePromoterParams,
  VenueRequestBody,
} from './promoters.schemas.js';
import type { PromotersService } from './promoters.service.js';

/** The promoter's routes: only a `promoter` user (anyone else signed in: 403). */
const promoterOnly = async (request: FastifyRequest) => {
  if (authOf(request).user.role !== 'promoter') throw forbidden('Only a promoter account can do that.');
};

/** Routes whose body may be left out: no body reads as `{}`. */
const emptyBody = async (request: FastifyRequest) => {
  request.body ??= {};
};

const tags = ['promoters'];
const security = [{ bearer: [] }];
const SubmitBody = Type.Omit(EventCreateBody, ['status']);
const SubmissionEdit = Type.Omit(EventUpdateBody, ['status', 'venue_id']);

export const promotersRoutes: RoutePlugin<{ guard: GuardFactory; promoters: PromotersService }> = async (app, { guard, promoters }) => {
  const venueRead = guard({ permission: 'events:read', venueParam: 'venueId' });
  const venueWrite = guard({ permission: 'events:write', venueParam: 'venueId' });
  // Any signed-in user passes the guard (401 otherwise); a user who is not a promoter is refused (403)
  // once the body has been checked, as a role lacking a permission would be on an operator route.
  const signedIn = guard({ role: 'any' });
  const base = '/api/my-venues/:venueId/promoters';

  // ── The venue's side ────────────────────────────────────────────────────────────────────────
  app.get(
    base,
    {
      schema: {
        summary: "The venue's promoters: agreements and requests",
        description: 'Every agreement of the venue, oldest first: `pending` requests, `active`, `declined` and `ended` ones.',
        tags,
        security,
        params: VenueParams,
        response: { 200: AgreementList, ...errorResponses(401, 403, 404) },
      },
      onRequest: venueRead,
    },
    async (request) => promoters.listOfVenue(venueOf(request)),
  );

  app.get(
    `${base}/submissions`,
    {
      schema: {
        summary: "Promoters' events awaiting the venue's approval",
        description:
          'Events promoters submitted to the venue that are `pending_venue_approval`, oldest first. Approve or reject them with ' +
          '`POST /api/my-events/:id/approve` and `…/reject` (with an optional `reason`, mailed to the promoter).',
        tags,
        security,
        params: VenueParams,
        response: { 200: SubmissionList, ...errorResponses(401, 403, 404) },
      },
      onRequest: venueRead,
    },
    async (request) => promoters.submissions(venueOf(request)),
  );

  app.get(
    `${base}/invitations`,
    {
      schema: {
        summary: "The venue's pending promoter invitations",
        tags,
        security,
        params: VenueParams,
        response: { 200: PromoterInvitationList, ...errorResponses(401, 403, 404) },
      },
      onRequest: venueRead,
    },
    async (request) => promoters.invitationsOfVenue(venueOf(request)),
  );

  app.post(
    `${base}/invitations`,
    {
      schema: {
        summary: 'Invite a promoter by email',
        description:
          'Mails a link (`/app/promoter-invitation?token=…`, good for 7 days and once) with which the invitee chooses a password and ' +
          'becomes a promoter with an active agreement with the venue at `share_percent`. An email that already has an account, or a ' +
          'pending invitation of this venue: 409.',
        tags,
        security,
        params: VenueParams,
        body: PromoterInviteBody,
        response: { 201: PromoterInvitation, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: venueWrite,
    },
    async (request, reply) => reply.code(201).send(await promoters.invite(authOf(request), venueOf(request), request.body)),
  );

  app.delete(
    `${base}/invitations/:id`,
    {
      schema: {
        summary: 'Revoke a pending promoter invitation',
        tags,
        security,
        params: VenueInvitationParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: venueWrite,
    },
    async (request) => promoters.revokeInvitation(venueOf(request), request.params.id),
  );

  app.post(
    `${base}/:promoterId/accept`,
    {
      schema: {
        summary: "Accept a promoter's request",
        description: 'From `pending` (409 otherwise); `share_percent` sets the share (0 when never set).',
        tags,
        security,
        params: VenuePromoterParams,
        body: AcceptRequestBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: venueWrite,
      preValidation: emptyBody,
    },
    async (request) => promoters.accept(venueOf(request), request.params.promoterId, request.body?.share_percent),
  );

  app.post(
    `${base}/:promoterId/decline`,
    {
      schema: {
        summary: "Decline a promoter's request",
        description: 'From `pending` (409 otherwise). The promoter may ask again later.',
        tags,
        security,
        params: VenuePromoterParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: venueWrite,
    },
    async (request) => promoters.decline(venueOf(request), request.params.promoterId),
  );

  app.post(
    `${base}/:promoterId/end`,
    {
      schema: {
        summary: 'End an agreement with a promoter',
        description:
          'From `active` (409 otherwise). The promoter can no longer submit events to the venue; their events stay as they are (the ' +
          'venue decides on pending ones), and sales of them still record the share.',
        tags,
        security,
        params: VenuePromoterParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: venueWrite,
    },
    async (request) => promoters.end(venueOf(request), request.params.promoterId),
  );

  app.patch(
    `${base}/:promoterId`,
    {
      schema: {
        summary: "Set a promoter's share of ticket revenue",
        description: 'Whole percent, 0–100. Applies to sales from now on: sales already recorded keep the percent of their time.',
        tags,
        security,
        params: VenuePromoterParams,
        body: ShareBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: venueWrite,
    },
    async (request) => promoters.setShare(venueOf(request), request.params.promoterId, request.body.share_percent),
  );

  // ── Public: the invitation link and self sign-up ─────────────────────────────────────────────
  app.get(
    '/api/promoter-invitations/:token',
    {
      schema: {
        summary: 'Read a promoter invitation by the token of its link',
        description: 'Public (the link is the credential). Unknown, accepted, revoked or expired: 404.',
        tags,
        params: TokenParams,
        response: { 200: InvitationPreview, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return promoters.preview(request.params.token);
    },
  );

  app.post(
    '/api/promoter-invitations/accept',
    {
      schema: {
        summary: 'Accept a promoter invitation: create the promoter account with a password',
        description:
          'Public (the link is the credential). Creates the promoter (role `promoter`) with the invitation’s email and name, and its ' +
          'active agreement with the venue; then sign in with `POST /api/auth/login`. Unknown, used, revoked or expired: 404; the email ' +
          'has meanwhile become an account: 409. Two accepts of one link create one account.',
        tags,
        body: InvitationAcceptBody,
        response: { 201: CreatedBody, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const id = await promoters.acceptInvitation(request.body.token, request.body.password);
      return reply.code(201).header('Cache-Control', 'private, no-store').send({ success: true, id });
    },
  );

  app.post(
    '/api/promoter/register',
    {
      schema: {
        summary: 'Sign up as a promoter: mails a verification code',
        description:
          'Public. Step 1 of 2. Answers 202 `{ verification_required: true }` for every address, whether or not it has an account, and ' +
          'creates nothing. The address is mailed a 6-digit code (valid 15 minutes, single use, 5 attempts; each sign-up keeps its own ' +
          'code and password, at most 3 waiting per address) or, when it already has an account, a note saying so (no code). Then ' +
          'call `POST /api/promoter/verify-email`. Rate limited per client address and per address, with guest registration (429). ' +
          '(Changed: this used to create the account at once (201) and answer 409 for a known address.)',
        tags,
        body: RegisterBody,
        response: { 202: SignUpAccepted, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return reply.code(202).send(await promoters.register(request.body, request.ip));
    },
  );

  app.post(
    '/api/promoter/verify-email',
    {
      schema: {
        summary: 'Finish a promoter sign-up with the mailed code',
        description:
          'Public. Step 2 of 2. With a code `POST /api/promoter/register` mailed, creates the promoter (role `promoter`, no venue yet) ' +
          'with that sign-up’s name and password and answers `{ user, token }`, as signing in does; then ask venues with ' +
          '`POST /api/promoter/agreements`. A wrong, expired, used or unknown code is 400 (one message for all); wrong codes count ' +
          'per email and per client address (429). 409 when the address got an account in the meantime.',
        tags,
        body: SignUpVerifyBody,
        response: { 201: PromoterSession, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return reply.code(201).send(await promoters.verifySignUp(request.body, request.ip));
    },
  );

  // ── The promoter's side ─────────────────────────────────────────────────────────────────────
  app.get(
    '/api/promoter/agreements',
    {
      schema: {
        summary: "The promoter's venues: agreements and requests",
        tags,
        security,
        response: { 200: AgreementList, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.agreementsOf(authOf(request).user.id),
  );

  app.post(
    '/api/promoter/agreements',
    {
      schema: {
        summary: 'Ask a venue to accept the promoter',
        description: 'A live venue (404 otherwise). A declined or ended agreement is asked for again; a pending or active one: 409.',
        tags,
        security,
        body: VenueRequestBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.request(authOf(request).user.id, request.body.venue_id),
  );

  app.get(
    '/api/promoter/events',
    {
      schema: {
        summary: "The promoter's own events",
        description: 'Every event the promoter submitted, at any venue and in any status, by date.',
        tags,
        security,
        response: { 200: Type.Object({ data: Type.Array(EventRecord) }), ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.listEvents(authOf(request).user.id),
  );

  app.post(
    '/api/promoter/events',
    {
      schema: {
        summary: 'Submit an event to a venue',
        description:
          'The venue must have an active agreement with the promoter (404 otherwise). The event arrives as `pending_venue_approval`, ' +
          'which holds the date (409 with `conflict` when another approved or pending event holds it).',
        tags,
        security,
        body: SubmitBody,
        response: { 201: PromoterEventCreated, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request, reply) => reply.code(201).send(await promoters.submitEvent(authOf(request).user.id, request.body)),
  );

  app.get(
    '/api/promoter/events/:id',
    {
      schema: {
        summary: "One of the promoter's events",
        tags,
        security,
        params: IdParams,
        response: { 200: Type.Object({ data: EventRecord }), ...errorResponses(401, 403, 404) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.getEvent(authOf(request).user.id, request.params.id),
  );

  app.put(
    '/api/promoter/events/:id',
    {
      schema: {
        summary: "Edit the promoter's submission",
        description: 'Only while `pending_venue_approval` (409 otherwise); a new date must not clash (409 with `conflict`).',
        tags,
        security,
        params: IdParams,
        body: SubmissionEdit,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.updateEvent(authOf(request).user.id, request.params.id, request.body),
  );

  app.delete(
    '/api/promoter/events/:id',
    {
      schema: {
        summary: "Withdraw the promoter's submission",
        description: 'Only while `pending_venue_approval` or `rejected` (409 otherwise).',
        tags,
        security,
        params: IdParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.removeEvent(authOf(request).user.id, request.params.id),
  );

  app.get(
    '/api/promoter/events/:id/sales',
    {
      schema: {
        summary: "The ticket sales of the promoter's event with their share",
        description:
          'One row per confirmed sale (a booking), with the share at the agreement’s percent when it was sold, and one per refund of it ' +
          '(negative amount and share, at the sale’s percent); the totals are net of refunds.',
        tags,
        security,
        params: IdParams,
        response: { 200: SalesList, ...errorResponses(401, 403, 404) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.sales(authOf(request).user.id, request.params.id),
  );

  app.get(
    '/api/promoter/earnings',
    {
      schema: {
        summary: "The promoter's share of ticket revenue, in all and per event",
        description: 'Net of refunds: amounts are sales less refunds, shares what the sales earned less what refunds took back.',
        tags,
        security,
        response: { 200: Earnings, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: promoterOnly,
    },
    async (request) => promoters.earnings(authOf(request).user.id),
  );
};

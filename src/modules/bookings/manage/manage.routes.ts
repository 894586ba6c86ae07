/**
 * Guest self-service through the signed manage link (CONTRACT §5, an extension beyond the spec): read
 * the booking and cancel it. Public (the token is the credential), never cached, rate-limited per
 * client address. The booking mail links to the GET; the cancel takes the token in its body, so it
 * does not end in access logs.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { MANAGE_TOKEN_MAX_LENGTH } from '../../../domain/booking-tokens/index.js';
import { badRequest } from '../../../platform/errors.js';
import { errorResponses, Nullable } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { BAD_MANAGE_LINK_MESSAGE, type ManageBookings } from './manage.service.js';

const Token = Type.String({ minLength: 1, maxLength: MANAGE_TOKEN_MAX_LENGTH, description: 'the `token` of the manage link' });

const ManagedBooking = Type.Object({
  booking_id: Type.String(),
  reference: Nullable(Type.String({ description: 'extension: the short reference to give at the door' })),
  status: Type.String({ description: 'the booking status (decisions: booking statuses)' }),
  venue: Type.Object({
    id: Type.String(),
    name: Type.String(),
    address: Type.String(),
    timezone: Type.String(),
    phone: Nullable(Type.String({ description: 'extension: how to reach the venue when the page cannot do what the guest needs' })),
    email: Nullable(Type.String({ description: 'extension' })),
    theme_url: Nullable(Type.String({ description: 'extension: the venue’s widget theme stylesheet (path), so the page is branded' })),
    logo_url: Nullable(Type.String({ description: 'extension: the venue’s logo' })),
  }),
  date: Type.String({ description: 'venue-local YYYY-MM-DD' }),
  time: Nullable(Type.String({ description: 'venue-local HH:MM' })),
  party_size: Type.Integer(),
  duration_minutes: Nullable(Type.Integer()),
  starts_at: Nullable(Type.String()),
  ends_at: Nullable(Type.String()),
  guest_name: Nullable(Type.String()),
  cancelled_at: Nullable(Type.String()),
  payment: Type.Object({
    deposit_type: Type.String({ description: '`none`, `deposit` or `hold`' }),
    deposit_pence: Type.Integer({ description: 'the deposit or card hold asked for' }),
    payment_status: Type.String(),
    paid_pence: Type.Integer({ description: 'money taken: a paid deposit or a captured hold' }),
    refunded_pence: Type.Integer({ description: 'refunded so far' }),
  }),
  cancellation: Type.Object({
    can_cancel: Type.Boolean({ description: 'whether `POST …/manage/cancel` would cancel the booking now' }),
    refusal: Nullable(
      Type.Enum(['status', 'never', 'past_cutoff', 'started'], {
        description: 'why not: the booking status, a policy that never allows it, the cutoff passed, or the booking started',
      }),
    ),
    message: Nullable(Type.String({ description: 'the refusal in words' })),
    cancellable_until: Nullable(
      Type.String({ description: 'the last instant it may be cancelled: the policy cutoff, else the booking start; null: never' }),
    ),
    refund_pence: Type.Integer({ description: 'what cancelling now would refund (0 when it cannot be cancelled)' }),
    hold_release_pence: Type.Integer({ description: 'the card hold cancelling now would release' }),
    policy: Type.Object({
      refund_type: Type.String(),
      refund_percent: Type.Integer(),
      cancel_type: Type.String(),
      cancel_cutoff_value: Type.Integer(),
      cancel_cutoff_unit: Type.String(),
    }),
  }),
});

const Cancelled = Type.Object({
  success: Type.Literal(true),
  booking_id: Type.String(),
  status: Type.Literal('cancelled'),
  refunded_pence: Type.Integer({ description: 'refunded for the booking in total, so a repeated cancel answers the same' }),
});

const TOKEN_ERRORS =
  `A malformed, forged or expired token is 400 \`{ "error": "${BAD_MANAGE_LINK_MESSAGE}" }\` whatever booking it names; ` +
  'a valid token whose booking no longer exists is 404.';

export const manageBookingRoutes: RoutePlugin<{ manage: ManageBookings }> = async (app, { manage }) => {
  const tags = ['public'];
  const noStore = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('Cache-Control', 'no-store');
  };

  app.get(
    '/api/public/bookings/manage',
    {
      schema: {
        summary: "A booking as its guest sees it, through the manage link's token",
        description:
          'Extension (guest self-service). The venue, date, time, party size, status and payment figures, and whether the booking ' +
          'can be cancelled now, until when, and what cancelling now would refund under its payment policy. No contact details, ' +
          `tables or notes. ${TOKEN_ERRORS} Rate-limited per client address (429). Never cached.`,
        tags,
        querystring: Type.Object({ token: Token }),
        response: { 200: ManagedBooking, ...errorResponses(400, 404, 429) },
      },
      onRequest: noStore,
    },
    async (request) => manage.view(request.query.token, { ip: request.ip }),
  );

  app.post(
    '/api/public/bookings/manage/cancel',
    {
      schema: {
        summary: 'Cancel a booking through its manage link',
        description:
          'Extension (guest self-service). Body `{ token }` (the `token` query parameter is accepted too; the body keeps it out of ' +
          "logs). Cancels under the booking's payment policy: `cancel_type` never, a passed cutoff (`deadline` named) or a booking that " +
          'has started is 409; so is a status that cannot be cancelled (`status` named). Otherwise a paid deposit is refunded by the ' +
          "policy's `refund_type` (`none`, `full`, `partial` by `refund_percent`, rounded down), a card hold is released, an unpaid " +
          'payment is abandoned, the tables are freed and the guest is mailed a notice with a cancelling calendar file. ' +
          'Cancelling a cancelled booking changes nothing and answers the same 200. ' +
          `${TOKEN_ERRORS} Rate-limited per client address (429).`,
        tags,
        querystring: Type.Object({ token: Type.Optional(Token) }),
        body: Type.Object({ token: Type.Optional(Token) }),
        response: { 200: Cancelled, ...errorResponses(400, 404, 409, 429, 502, 503) },
      },
      onRequest: noStore,
      // No body reads as `{}` (a token in the query alone).
      preValidation: async (request: FastifyRequest) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const token = request.body.token ?? request.query.token;
      if (!token) throw badRequest('token is required');
      return manage.cancel(token, { ip: request.ip });
    },
  );
};

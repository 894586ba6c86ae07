/**
 * The guest's own account (docs/account.md): sign-in by a mailed one-time code, and the `/api/me/…`
 * routes of a signed-in guest (role `guest`; a portal user is 403). Answers are never cached.
 */
import { authOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { badRequest, forbidden } from '../../platform/errors.js';
import {
  AccountSession,
  CodeRequestBody,
  CodeRequested,
  CodeVerifyBody,
  EraseBody,
  EraseResult,
  ExportResult,
  KeysLedger,
  MyBookings,
  MyTickets,
  MyVouchers,
  PreferencesBody,
  PreferencesResult,
  TopUpBody,
  TopUpResult,
} from './account.schemas.js';
import type { AccountService } from './account.service.js';
import type { SignIn } from './sign-in.js';

export const accountRoutes: RoutePlugin<{ guard: GuardFactory; account: AccountService; signIn: SignIn }> = async (
  app,
  { guard, account, signIn },
) => {
  const tags = ['account'];
  const security = [{ bearer: [] }];
  // Any session passes the hook (401 without one); a portal user is refused (403) after the body's checks,
  // so a malformed body is a 400 whoever sends it.
  const signedIn = guard({ role: 'any' });
  const guestOnly = async (request: Parameters<typeof authOf>[0]) => {
    if (authOf(request).user.role !== 'guest') throw forbidden('This is for guest accounts: sign in to the portal instead');
  };
  const me = (request: Parameters<typeof authOf>[0]) => ({ id: authOf(request).user.id, email: authOf(request).user.email });

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Cache-Control', 'private, no-store');
  });

  app.post(
    '/api/account/sign-in-code',
    {
      schema: {
        tags,
        summary: 'Mail a one-time sign-in code to an address',
        description:
          'Extension (the guest account). Answers 202 `{ code_sent: true }` for every address. A guest address (or one without an ' +
          'account) is mailed a 6-digit code, valid 10 minutes, single use, 5 guesses; a portal user’s address is mailed a note ' +
          'to sign in to the portal instead. Limited per client address and per address (429).',
        body: CodeRequestBody,
        response: { 202: CodeRequested, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await signIn.requestCode(request.body, request.ip)),
  );

  app.post(
    '/api/account/sign-in-code/verify',
    {
      schema: {
        tags,
        summary: 'Sign in with the mailed code',
        description:
          'Extension. Answers `{ user, token }` (a bearer session, like `/api/auth/login`); the address is proven, and the guest ' +
          'record of that address from earlier bookings (or a new one) is the account. A wrong, expired, used or unknown code ' +
          'is 400 (one message for all); guesses are counted per address and per client address before the check (429).',
        body: CodeVerifyBody,
        response: { 200: AccountSession, ...errorResponses(400, 429) },
      },
    },
    async (request) => signIn.verifyCode(request.body, request.ip),
  );

  app.get(
    '/api/me/bookings',
    {
      schema: {
        tags,
        security,
        summary: "The signed-in guest's bookings, upcoming and past",
        description:
          'Extension. Across every venue and operator: bookings linked to the guest or made with their (proven) address, ' +
          'ticketed event bookings apart (`/api/me/tickets`). Upcoming ones soonest first, past ones newest first. Each ' +
          'carries its manage token: read and cancel it under its policy with `/api/public/bookings/manage`.',
        response: { 200: MyBookings, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request) => account.bookings(me(request)),
  );

  app.get(
    '/api/me/tickets',
    {
      schema: {
        tags,
        security,
        summary: "The signed-in guest's event tickets",
        description: 'Extension. Event bookings of the guest (as for bookings), each with its ticket lines and door QR.',
        response: { 200: MyTickets, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request) => ({ data: await account.tickets(me(request)) }),
  );

  app.get(
    '/api/me/vouchers',
    {
      schema: {
        tags,
        security,
        summary: "The signed-in guest's gift vouchers",
        description: 'Extension. Vouchers whose recipient or purchaser is the guest’s address, at any venue: balance, code and QR.',
        response: { 200: MyVouchers, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request) => ({ data: await account.vouchers(me(request)) }),
  );

  app.get(
    '/api/me/keys/ledger',
    {
      schema: {
        tags,
        security,
        summary: "The signed-in guest's keys balance and ledger",
        description: 'Extension. The newest 200 entries (grants, top-ups, spends, refunds) and the price of a key in pence.',
        response: { 200: KeysLedger, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request) => account.ledger(me(request)),
  );

  app.post(
    '/api/me/keys/top-up',
    {
      schema: {
        tags,
        security,
        summary: 'Start a keys top-up: a checkout session with the payment provider',
        description:
          'Extension. `keys` (1–500) at `pence_per_key` each. Answers the hosted checkout page to send the guest to; when it is ' +
          'paid, the provider’s `checkout.session.completed` webhook runs the `keys_topup` fulfilment, which adds the keys. ' +
          '503 when payments are not configured.',
        body: TopUpBody,
        response: { 201: TopUpResult, ...errorResponses(400, 401, 403, 503) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request, reply) => reply.code(201).send(await account.topUp(me(request), request.body.keys)),
  );

  app.get(
    '/api/me/preferences',
    {
      schema: {
        tags,
        security,
        summary: "The signed-in guest's contact preferences",
        description: 'Extension. Per channel: marketing and reminders by email and by SMS (`updated_at` null: never set, the defaults).',
        response: { 200: PreferencesResult, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request) => account.preferences(me(request)),
  );

  app.put(
    '/api/me/preferences',
    {
      schema: {
        tags,
        security,
        summary: "Change the signed-in guest's contact preferences",
        description: 'Extension. Any of the four flags; the others keep their values. Answers the preferences.',
        body: PreferencesBody,
        response: { 200: PreferencesResult, ...errorResponses(400, 401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request) => {
      if (Object.keys(request.body).length === 0) throw badRequest('Send at least one preference');
      return account.savePreferences(me(request), request.body);
    },
  );

  app.get(
    '/api/me/export',
    {
      schema: {
        tags,
        security,
        summary: "Export the signed-in guest's data",
        description: 'Extension. The account, preferences, keys ledger, bookings, tickets and vouchers as one JSON document.',
        response: { 200: ExportResult, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request, reply) => {
      reply.header('Content-Disposition', 'attachment; filename="my-data.json"');
      return account.exportData(me(request));
    },
  );

  app.delete(
    '/api/me',
    {
      schema: {
        tags,
        security,
        summary: "Delete the signed-in guest's account",
        description:
          'Extension. The guest confirms with their email (`confirm_email`, else 400). Erases the guest at every operator that ' +
          'holds them, as an operator’s erasure does, then the account (its personal fields; every session ends). Bookings, ' +
          'vouchers, payments and the keys ledger are kept, anonymised.',
        body: EraseBody,
        response: { 200: EraseResult, ...errorResponses(400, 401, 403) },
      },
      onRequest: signedIn,
      preHandler: guestOnly,
    },
    async (request) => account.erase(me(request), request.body.confirm_email),
  );
};

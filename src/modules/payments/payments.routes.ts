/**
 * Payments routes: payout onboarding and status (operator), the inbound payment webhook (raw body,
 * signature-checked) and the pages the real provider's onboarding returns to. Under the simulated
 * provider only, its own routes too (`simulated/routes.ts`: the test card form, the hosted checkout and
 * onboarding pages, the event redelivery timer).
 */
import type { Logger } from 'pino';
import { authOf, operatorIdOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { Payments } from './payments.js';
import { messagePage, sendHtml } from './pages.js';
import { ConnectStartResult, KeysBalance, PayoutBalanceResult, PayoutStatusResult, WebhookAck } from './payments.schemas.js';
import { simulatedRoutes } from './simulated/index.js';

/** Provider events are small; the global limit is sized for image uploads. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The webhook in a context of its own: its JSON parser keeps the bytes exactly as received, since the
 * signature is over them (re-serialised JSON would differ). Every other route keeps the global parser.
 */
const webhookRoute: RoutePlugin<{ payments: Payments }> = async (app, { payments }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/api/webhooks/payment',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        tags: ['payments'],
        summary: 'Inbound payment-provider events',
        description:
          'Signed with `Payment-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (several v1 allowed, 300 s tolerance; ' +
          'the same header named `Stripe-Signature` is accepted). ' +
          'Handles `checkout.session.completed` / `.expired` by `metadata.kind`; every verified event is acknowledged.',
        response: { 200: WebhookAck, ...errorResponses(400, 500, 503) },
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // Stripe itself names the same t=…,v1=… header Stripe-Signature.
      const header = request.headers['payment-signature'] ?? request.headers['stripe-signature'];
      await payments.webhooks.receive(raw, Array.isArray(header) ? header[0] : header);
      return { received: true as const };
    },
  );
};

export const paymentsRoutes: RoutePlugin<{ guard: GuardFactory; payments: Payments; log: Logger }> = async (
  app,
  { guard, payments, log },
) => {
  const tags = ['payouts'];

  app.post(
    '/api/my-operator/payout/connect/start',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary: 'Start (or resume) payout onboarding',
        description:
          'Creates or reuses the connected account; returns the hosted onboarding address. 503 when payments are not configured, 502 on provider failure.',
        response: { 200: ConnectStartResult, ...errorResponses(401, 403, 502, 503) },
      },
      onRequest: guard({ permission: 'operators.settings:write' }),
    },
    async (request) => payments.payouts.start(operatorIdOf(request)),
  );

  app.get(
    '/api/my-operator/payout/status',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary: 'Payout status, read from the provider',
        response: { 200: PayoutStatusResult, ...errorResponses(401, 403) },
      },
      // Whoever may start onboarding (operators.settings) may also follow it.
      onRequest: guard({ permission: ['payouts:read', 'operators.settings:read'] }),
    },
    async (request) => payments.payouts.status(operatorIdOf(request)),
  );

  app.get(
    '/api/my-operator/payout/balance',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary: 'Money owed to the operator before payouts were enabled',
        description:
          'Extension (operator portal): guest payments taken on the platform account before the connected account was ' +
          'enabled (decisions: Payments before payout onboarding), less fees and refunds, that are still owed; what is in ' +
          'transfer; and what was transferred. Integer pence. Payments taken after onboarding settle to the connected ' +
          'account directly and are not counted here.',
        response: { 200: PayoutBalanceResult, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: ['payouts:read', 'operators.settings:read'] }),
    },
    async (request) => payments.payouts.balance(operatorIdOf(request)),
  );

  app.get(
    '/api/me/keys',
    {
      schema: {
        tags: ['auth'],
        security: [{ bearer: [] }],
        summary: "The signed-in user's keys balance",
        description:
          'Extension: keys are guests’ in-app credit, spent on guest lists (decisions: Guest list). The balance is the billing ' +
          'ledger’s sum; the widgets show it before a guest joins a list. Never cached.',
        response: { 200: KeysBalance, ...errorResponses(401) },
      },
      onRequest: guard({ role: 'any' }),
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return { balance: await payments.keysBalance(authOf(request).user.id) };
    },
  );

  await app.register(webhookRoute, { payments });

  // Where the real provider's hosted onboarding sends the operator back to.
  app.get<{ Params: { outcome: string } }>('/payouts/onboarding/:outcome', { schema: { hide: true } }, async (request, reply) => {
    if (request.params.outcome === 'return') {
      return sendHtml(
        reply,
        200,
        messagePage(
          'Payout onboarding',
          'Thank you: your details were sent. Payout status updates in the portal; you can close this window.',
        ),
      );
    }
    if (request.params.outcome === 'refresh') {
      return sendHtml(
        reply,
        200,
        messagePage('Payout onboarding', 'This onboarding link has expired. Start onboarding again from the payouts page of the portal.'),
      );
    }
    return sendHtml(reply, 404, messagePage('Not found', 'No such page.'));
  });

  if (payments.simulated) {
    await app.register(simulatedRoutes, {
      simulated: payments.simulated,
      confirm: (intentId, paymentMethod) => payments.confirmSimulated(intentId, paymentMethod),
      log,
    });
  }
};

/**
 * Payments routes: payout onboarding and status (operator), the inbound payment webhook (raw body,
 * signature-checked), and, under the simulated provider only, the test card form and the hosted
 * checkout and onboarding pages. Also the pages the real provider's onboarding returns to.
 */
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { operatorIdOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { Payments } from './payments.js';
import { PaymentProviderError } from './provider.js';
import { ConfirmBody, ConfirmResult, ConnectStartResult, IntentParams, PayoutStatusResult, WebhookAck } from './payments.schemas.js';
import { checkoutPage, messagePage, onboardingPage, PAGE_HEADERS } from './simulated.pages.js';

/** Provider events are small; the global limit is sized for image uploads. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** How often the simulated provider looks for events due for another delivery attempt. */
const SIMULATED_EVENT_RETRY_INTERVAL_MS = 30_000;

const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).headers(PAGE_HEADERS).send(body);

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

/** The simulated provider's hosted pages, posted to as HTML forms. */
const simulatedPages: RoutePlugin<{ payments: Payments }> = async (app, { payments }) => {
  const simulated = payments.simulated!;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const hidden = { hide: true };

  const notFoundPage = (reply: FastifyReply, what: string) => html(reply, 404, messagePage('Not found', `No such ${what}.`));

  // Onboarding pages are reached only through an account link (a single-use, expiring token), as at
  // the real provider: a spent link sends the browser to the link's refresh URL, a finished one to its
  // return URL.
  app.get<{ Params: { token: string } }>('/simulated/onboarding/:token', { schema: hidden }, async (request, reply) => {
    try {
      const link = await simulated.onboardingLink(request.params.token);
      if (link.state === 'spent') return reply.header('cache-control', 'no-store').redirect(link.refreshUrl, 303);
      return html(reply, 200, onboardingPage(link.account));
    } catch (error) {
      if (error instanceof PaymentProviderError && error.kind === 'not_found') return notFoundPage(reply, 'onboarding link');
      throw error;
    }
  });

  app.post<{ Params: { token: string }; Body: Record<string, string> | undefined }>(
    '/simulated/onboarding/:token',
    { schema: hidden },
    async (request, reply) => {
      const outcome = request.body?.outcome;
      if (outcome !== 'verified' && outcome !== 'pending') {
        return html(reply, 400, messagePage('Payout onboarding', 'Choose how to finish onboarding.'));
      }
      try {
        // The provider's `account.updated` event updates the operator's status and settles what is owed.
        const done = await simulated.completeOnboarding(request.params.token, outcome === 'verified');
        return reply.header('cache-control', 'no-store').redirect(done.state === 'done' ? done.returnUrl : done.refreshUrl, 303);
      } catch (error) {
        if (error instanceof PaymentProviderError && error.kind === 'not_found') return notFoundPage(reply, 'onboarding link');
        throw error;
      }
    },
  );

  app.get<{ Params: { sessionId: string } }>('/simulated/checkout/:sessionId', { schema: hidden }, async (request, reply) => {
    try {
      return html(reply, 200, checkoutPage(await simulated.checkoutPage(request.params.sessionId)));
    } catch (error) {
      if (error instanceof PaymentProviderError && error.kind === 'not_found') return notFoundPage(reply, 'checkout session');
      throw error;
    }
  });

  app.post<{ Params: { sessionId: string }; Body: Record<string, string> | undefined }>(
    '/simulated/checkout/:sessionId',
    { schema: hidden },
    async (request, reply) => {
      const { sessionId } = request.params;
      const paymentMethod = request.body?.payment_method ?? '';
      try {
        const { session, declined } = await simulated.payCheckoutSession(sessionId, paymentMethod);
        const view = await simulated.checkoutPage(sessionId);
        if (declined || session.status !== 'complete') return html(reply, 402, checkoutPage(view, declined));
        // As the real provider does: the success URL may carry the session id placeholder.
        return reply.redirect(view.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id)), 303);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        if (error.kind === 'not_found' && error.message.includes('checkout.session')) return notFoundPage(reply, 'checkout session');
        if (error.kind === 'state') return html(reply, 409, checkoutPage(await simulated.checkoutPage(sessionId)));
        return html(reply, 400, messagePage('Checkout', error.message));
      }
    },
  );
};

export const paymentsRoutes: RoutePlugin<{ guard: GuardFactory; payments: Payments; log: Logger }> = async (app, { guard, payments, log }) => {
  const tags = ['payouts'];

  app.post(
    '/api/my-operator/payout/connect/start',
    {
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary: 'Start (or resume) payout onboarding',
        description: 'Creates or reuses the connected account; returns the hosted onboarding address. 503 when payments are not configured, 502 on provider failure.',
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

  await app.register(webhookRoute, { payments });

  // Where the real provider's hosted onboarding sends the operator back to.
  app.get<{ Params: { outcome: string } }>('/payouts/onboarding/:outcome', { schema: { hide: true } }, async (request, reply) => {
    if (request.params.outcome === 'return') {
      return html(reply, 200, messagePage('Payout onboarding', 'Thank you: your details were sent. Payout status updates in the portal; you can close this window.'));
    }
    if (request.params.outcome === 'refresh') {
      return html(reply, 200, messagePage('Payout onboarding', 'This onboarding link has expired. Start onboarding again from the payouts page of the portal.'));
    }
    return html(reply, 404, messagePage('Not found', 'No such page.'));
  });

  if (!payments.simulated) return;

  app.post(
    '/api/public/simulated-payments/:intentId/confirm',
    {
      schema: {
        tags: ['payments'],
        summary: 'Confirm a payment intent with a test card (simulated provider only)',
        description: '`pm_card_visa` succeeds (`requires_capture` for a card hold); `pm_card_chargeDeclined` leaves it `requires_payment_method` with a `last_payment_error`.',
        params: IntentParams,
        body: ConfirmBody,
        response: { 200: ConfirmResult, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const intent = await payments.confirmSimulated(request.params.intentId, request.body.payment_method);
      return {
        id: intent.id,
        status: intent.status,
        ...(intent.last_payment_error ? { last_payment_error: intent.last_payment_error } : {}),
      };
    },
  );

  await app.register(simulatedPages, { payments });

  // Events the platform did not accept are delivered again, as the real provider retries its webhooks.
  const simulated = payments.simulated;
  const retry = setInterval(() => {
    simulated.deliverDueEvents().catch((error) => log.error({ err: error }, 'simulated provider event redelivery failed'));
  }, SIMULATED_EVENT_RETRY_INTERVAL_MS);
  retry.unref();
  app.addHook('onClose', async () => clearInterval(retry));
};

/**
 * The simulated provider's own routes, registered only under it: the test card form the widget posts
 * to, the hosted checkout and onboarding pages, and the timer that delivers again the events the
 * platform did not accept.
 */
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { messagePage, sendHtml } from '../pages.js';
import { ConfirmBody, ConfirmResult, IntentParams } from '../payments.schemas.js';
import { PaymentProviderError, type PaymentIntent } from '../provider.js';
import { checkoutPage, onboardingPage } from './pages.js';
import type { SimulatedProvider } from './types.js';

/** How often the simulated provider looks for events due for another delivery attempt. */
const SIMULATED_EVENT_RETRY_INTERVAL_MS = 30_000;

/** The hosted pages, posted to as HTML forms: their own context, so only they parse form bodies. */
const hostedPages: RoutePlugin<{ simulated: SimulatedProvider }> = async (app, { simulated }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const hidden = { hide: true };

  const notFoundPage = (reply: FastifyReply, what: string) => sendHtml(reply, 404, messagePage('Not found', `No such ${what}.`));

  // Onboarding pages are reached only through an account link (a single-use, expiring token), as at
  // the real provider: a spent link sends the browser to the link's refresh URL, a finished one to its
  // return URL.
  app.get<{ Params: { token: string } }>('/simulated/onboarding/:token', { schema: hidden }, async (request, reply) => {
    try {
      const link = await simulated.onboardingLink(request.params.token);
      if (link.state === 'spent') return reply.header('cache-control', 'no-store').redirect(link.refreshUrl, 303);
      return sendHtml(reply, 200, onboardingPage(link.account));
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
        return sendHtml(reply, 400, messagePage('Payout onboarding', 'Choose how to finish onboarding.'));
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
      return sendHtml(reply, 200, checkoutPage(await simulated.checkoutPage(request.params.sessionId)));
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
        if (declined || session.status !== 'complete') return sendHtml(reply, 402, checkoutPage(view, declined));
        // As the real provider does: the success URL may carry the session id placeholder.
        return reply.redirect(view.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id)), 303);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        if (error.kind === 'not_found' && error.message.includes('checkout.session')) return notFoundPage(reply, 'checkout session');
        if (error.kind === 'state') return sendHtml(reply, 409, checkoutPage(await simulated.checkoutPage(sessionId)));
        return sendHtml(reply, 400, messagePage('Checkout', error.message));
      }
    },
  );
};

export const simulatedRoutes: RoutePlugin<{
  simulated: SimulatedProvider;
  /** Confirms through the payments platform, which records in the ledger what the intent moved. */
  confirm(intentId: string, paymentMethod: string): Promise<PaymentIntent>;
  log: Logger;
}> = async (app, { simulated, confirm, log }) => {
  app.post(
    '/api/public/simulated-payments/:intentId/confirm',
    {
      schema: {
        tags: ['payments'],
        summary: 'Confirm a payment intent with a test card (simulated provider only)',
        description:
          '`pm_card_visa` succeeds (`requires_capture` for a card hold); `pm_card_chargeDeclined` leaves it `requires_payment_method` with a `last_payment_error`.',
        params: IntentParams,
        body: ConfirmBody,
        response: { 200: ConfirmResult, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const intent = await confirm(request.params.intentId, request.body.payment_method);
      return {
        id: intent.id,
        status: intent.status,
        ...(intent.last_payment_error ? { last_payment_error: intent.last_payment_error } : {}),
      };
    },
  );

  await app.register(hostedPages, { simulated });

  // Events the platform did not accept are delivered again, as the real provider retries its webhooks.
  const retry = setInterval(() => {
    simulated.deliverDueEvents().catch((error) => log.error({ err: error }, 'simulated provider event redelivery failed'));
  }, SIMULATED_EVENT_RETRY_INTERVAL_MS);
  retry.unref();
  app.addHook('onClose', async () => clearInterval(retry));
};

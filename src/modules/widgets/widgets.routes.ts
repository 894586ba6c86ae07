/**
 * The guest widget pages (spec "Branding and widgets"; docs/widgets.md): `/widget/:publicId` serves the
 * page of that widget's type with the venue's public config inlined, `/widget/:publicId/theme.css` its
 * theme, `/widget/assets/*` the hashed build files and `/widget/loader.js` the embed loader.
 *
 * These are the only answers that may be framed by any origin (`frame-ancestors *`, no X-Frame-Options);
 * everything else keeps the strict headers set in platform/security-headers.ts. The pages are not API
 * operations, so they are left out of the OpenAPI document.
 */
import type { FastifyReply } from 'fastify';
import type { RoutePlugin } from '../../platform/module.js';
import type { WidgetPages } from './widget-pages.service.js';
import { sendBuiltAsset } from '../../platform/built-app.js';

/**
 * The widget pages' policy: scripts and styles from this origin, Stripe.js (loaded at the payment step
 * when Stripe is the provider) and Turnstile (the bot check, when configured) with their frames; API
 * calls to this origin and Stripe's API; images from here, data: URLs and https (event images); and
 * framing by any site that embeds the widget.
 */
export const WIDGET_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "script-src 'self' https://js.stripe.com https://challenges.cloudflare.com",
  'frame-src https://js.stripe.com https://hooks.stripe.com https://challenges.cloudflare.com',
  "connect-src 'self' https://api.stripe.com",
  "img-src 'self' data: https:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "form-action 'self'",
  'frame-ancestors *',
].join('; ');

/** The manage page: the widget policy without Stripe and without framing. */
const MANAGE_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** May be framed anywhere: the strict policy set on every answer is replaced, X-Frame-Options dropped. */
function frameable(reply: FastifyReply): FastifyReply {
  reply.raw.removeHeader('x-frame-options');
  return reply.header('content-security-policy', WIDGET_CSP);
}

export const widgetRoutes: RoutePlugin<{ pages: WidgetPages }> = async (app, { pages }) => {
  const hidden = { hide: true };

  app.get('/widget/loader.js', { schema: hidden, config: { etag: true } }, async (_request, reply) => {
    const loader = pages.loader();
    if (!loader) return frameable(reply).code(503).type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send('');
    // A stable address venues paste into their sites: revalidated every few minutes, loadable from any origin.
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(loader.toString('utf8'));
  });

  app.get<{ Params: { file: string } }>('/widget/assets/:file', { schema: hidden }, async (request, reply) => {
    return sendBuiltAsset(request, reply, pages.asset(request.params.file));
  });

  // The booking mail's manage link. Never cached (the page is the same for everyone, but it is opened
  // with a credential in its address); not framed anywhere but here, like the API.
  app.get('/widget/manage', { schema: hidden }, async (_request, reply) => {
    const page = pages.manage();
    return reply
      .code(page.status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', MANAGE_CSP)
      .send(page.html);
  });

  // The guest's own account app: never cached, never framed (it holds a session), the manage page's policy.
  app.get('/account', { schema: hidden }, async (_request, reply) => {
    const page = pages.account();
    return reply
      .code(page.status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', MANAGE_CSP)
      .send(page.html);
  });

  app.get<{ Params: { publicId: string } }>('/widget/:publicId', { schema: hidden, config: { etag: true } }, async (request, reply) => {
    const page = await pages.page(request.params.publicId);
    // no-cache: the browser revalidates every time (the ETag makes that a 304), so a change of the
    // venue's settings or a new build shows at the next load.
    return frameable(reply).code(page.status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page.html);
  });

  app.get<{ Params: { publicId: string } }>(
    '/widget/:publicId/theme.css',
    { schema: hidden, config: { etag: true } },
    async (request, reply) => {
      const css = await pages.theme(request.params.publicId);
      if (css === undefined) return reply.code(404).type('text/css; charset=utf-8').header('cache-control', 'no-store').send('');
      return reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(css);
    },
  );
};

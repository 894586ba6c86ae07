/**
 * The operator portal at /app/ (docs/ARCHITECTURE.md, Portal): `/app/assets/*` are the build's hashed files
 * (immutable for a year); any other app path is the single-page app's index.html (`no-cache`, so a new
 * build shows at the next load), with the server's clock in a meta tag (the portal's "today" and "now"
 * line follow the server's clock, not the device's). Paths that look like files (an extension) and are not
 * built assets are 404, never the page. Framed only by this origin. Without a build: 503 `{ error }`.
 * Not API operations, so left out of the OpenAPI document.
 */
import type { FastifyReply } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { PortalBuild } from './portal-build.js';
import { sendBuiltAsset } from '../../platform/built-app.js';

/** The portal's policy: everything from this origin (API calls included); camera frames and chosen images as blob:/data:. */
export const PORTAL_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

const NOT_BUILT = 'The portal is not built yet: run npm run build:portal (or npm install) and reload';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function pageHeaders(reply: FastifyReply): FastifyReply {
  reply.raw.setHeader('x-frame-options', 'SAMEORIGIN');
  return reply.header('content-security-policy', PORTAL_CSP);
}

export const portalRoutes: RoutePlugin<{ build: () => PortalBuild | undefined; clock: Clock }> = async (app, { build, clock }) => {
  const hidden = { hide: true };

  app.get('/app', { schema: hidden }, async (_request, reply) => reply.redirect('/app/', 302));

  app.get<{ Params: { file: string } }>('/app/assets/:file', { schema: hidden }, async (request, reply) => {
    return sendBuiltAsset(request, reply, build()?.asset(request.params.file));
  });

  app.get<{ Params: { '*': string } }>('/app/*', { schema: hidden }, async (request, reply) => {
    const last = request.params['*'].split('/').pop() ?? '';
    // A missing file (an old hashed asset, a typo, a favicon) is a 404, never the page cached under its name.
    if (/\.[A-Za-z0-9]+$/.test(last)) return reply.code(404).header('cache-control', 'no-store').send({ error: 'Not found' });
    const current = build();
    if (!current) return reply.code(503).header('cache-control', 'no-store').header('retry-after', '5').send({ error: NOT_BUILT });
    const html = current.index.replace(
      '<head>',
      `<head>\n    <meta name="server-now" content="${escapeAttribute(clock.now().toISOString())}" />`,
    );
    return pageHeaders(reply).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
};

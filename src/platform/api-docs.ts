/**
 * The API's own documentation: the OpenAPI document at /api/openapi.json (built from the route schemas)
 * and the interactive page at /docs: Maitred's own small page running swagger-ui from the
 * `swagger-ui-dist` package (its two files served from this origin, so the page runs under the strict
 * security policy). `GET /` leads there, except a browser's, which goes to the operator portal at `/app/`.
 *
 * Why not @fastify/swagger-ui: it loads a second copy of @fastify/static and the yaml library at every
 * start (for a YAML route nobody needs) — about a tenth of the server's start-up — and brands the page
 * as the framework's, which it took a layer of overrides to undo.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { RESPONSE_DESCRIPTIONS } from './http.js';

/** The getting-started text at the top of /docs (OpenAPI `info.description`, Markdown). */
export const API_GUIDE = `
The operator (client-role) management API, the public guest-facing widget API and the payment webhook.
Requests and responses are JSON. Money is an integer number of pence; dates (\`YYYY-MM-DD\`) and clock
times (\`HH:MM\`) are in the venue's own time zone.

## Getting started
1. **Log in**: \`POST /api/auth/login\` with \`{ "email", "password" }\` answers \`{ user, token }\`.
2. **Send the token**: \`Authorization: Bearer <token>\` on every operator request. Here, press
   **Authorize** and paste the token; then **Try it out** on any operation. The session slides: each
   request extends it (3 days); \`POST /api/auth/logout\` ends it. Public \`/api/public/*\` routes need no token.
3. **Permissions**: each operator route needs a named permission (\`GET /api/me/permissions\` lists the
   caller's). A role may be limited to some venues: another venue then answers 404, like a venue of
   another account.

## Paging
- **Offset**: \`limit\` (default 50, maximum 200) and \`offset\`; the answer is
  \`{ data, total, limit, offset, has_more }\`; iterate while \`has_more\` is true. Where an operation
  documents a \`page\` parameter instead, pages are numbered from 1.
- **Cursor** (high-volume lists that document it): send \`paging=cursor\`, then pass the returned
  \`cursor\` back until it is \`null\`; the answer is \`{ data, limit, has_more, cursor }\`.
- Other lists answer \`{ data: [...] }\` whole.

## Errors
Every error is JSON \`{ "error": "<message>" }\` (a few add fields, e.g. \`missing\` or \`conflict\`) with
its status: 400 invalid input, 401 not signed in or session expired, 403 not allowed, 404 not found,
409 conflicts with the current state, 429 rate limited, 503 unconfigured dependency or maintenance.

## Rate limits
Sensitive and public endpoints (sign-in, registration, two-factor codes, public guest endpoints) are rate
limited per IP, sign-in also per email. Over the limit the answer is **429** with a \`Retry-After\`
header: wait that many seconds before trying again.
In maintenance every \`/api/*\` request answers 503 with \`Retry-After\`.

## Caching
Authenticated responses are \`private, no-store\`. Public widget endpoints are edge-cached for a short
while. Some endpoints send an \`ETag\`: repeat it in \`If-None-Match\` to get 304 while unchanged.
`.trim();

/** Whether an Accept header asks for HTML by name (with a non-zero quality): a browser navigating, not `*\/*`. */
export function acceptsHtml(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return type === 'text/html' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** Tags in the order they appear on /docs, each with what it covers. */
const TAGS = [
  ['auth', 'Sign in and out, the current user, guest registration and two-factor authentication'],
  ['operator', 'The operator account and its dashboard'],
  ['permissions', 'The caller’s effective permissions and the permission tree'],
  ['members', 'Members of the operator account'],
  ['roles', 'Roles: the permission grid and venue scope'],
  ['portal-users', 'Portal (staff) users of the account'],
  ['audit', 'The audit log: who changed what, and when'],
  ['venues', 'Venues: details, go-live status, app listing, stats, sister venues and logo'],
  ['branding', 'Branding, widget settings, widget theme and images'],
  ['availability', 'Time periods, shifts, access rules and blackouts'],
  ['tables', 'Floors, tables, seating areas, blocks, combinations, smart tables and price lists'],
  ['profiles', 'List, table, event and ticket profiles'],
  ['admission', 'Admission groups and rules'],
  ['policies', 'Booking policies and payment policies'],
  ['bundles', 'Bundles of paid add-ons and their items'],
  ['promo-codes', 'Promo codes'],
  ['tags', 'Guest and reservation tags and tag categories'],
  ['copy-from', 'Copying a settings scope from another venue'],
  ['payouts', 'Payouts through the connected payment-provider account'],
  ['payments', 'Payment-provider webhook and hosted payment flows'],
  ['public', 'Public, guest-facing widget endpoints (no token)'],
  ['platform', 'Health and readiness of the service'],
].map(([name, description]) => ({ name, description }));

interface RouteSchema {
  hide?: boolean;
  response?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * Every response gets a description: a schema's own, else what its status means across the API
 * (successful reads and changes get a plain one). Only the document changes, not the route's schema.
 */
export function describeResponses(schema: RouteSchema | undefined, method: string | string[]): RouteSchema | undefined {
  if (!schema?.response) return schema;
  const reads = [method].flat().every((m) => m === 'GET' || m === 'HEAD');
  const response = Object.fromEntries(
    Object.entries(schema.response).map(([status, body]) => {
      if (typeof body.description === 'string' && body.description !== '') return [status, body];
      const code = Number(status);
      const fallback =
        code >= 200 && code < 300
          ? reads
            ? 'OK: the requested data'
            : 'OK: the change was made'
          : (RESPONSE_DESCRIPTIONS[code] ?? `Status ${status}`);
      return [status, { ...body, description: fallback }];
    }),
  );
  return { ...schema, response };
}

// Maitred's mark for the docs page (its header and favicon).
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="180" height="40" viewBox="0 0 180 40">' +
  '<rect width="40" height="40" rx="8" fill="#1c1917"/>' +
  '<path d="M9 29V11l11 11 11-11v18" fill="none" stroke="#fbbf24" stroke-width="4" stroke-linejoin="round"/>' +
  '<text x="50" y="27" font-family="system-ui,sans-serif" font-size="20" font-weight="700" fill="#fff">Maitred API</text>' +
  '</svg>';
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#1c1917"/>' +
  '<path d="M9 29V11l11 11 11-11v18" fill="none" stroke="#fbbf24" stroke-width="4" stroke-linejoin="round"/></svg>';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Maitred API</title>
    <link rel="icon" type="image/svg+xml" href="/docs/theme/favicon.svg">
    <link rel="stylesheet" href="/docs/static/swagger-ui.css">
    <link rel="stylesheet" href="/docs/theme/maitred.css">
  </head>
  <body>
    <header class="maitred-bar"><a href="/docs"><img src="/docs/theme/logo.svg" alt="Maitred API" width="180" height="40"></a></header>
    <main id="swagger-ui"></main>
    <script src="/docs/static/swagger-ui-bundle.js"></script>
    <script src="/docs/theme/init.js"></script>
  </body>
</html>
`;

// A file, not an inline script, so the page's policy can forbid inline scripts. The token pasted into
// Authorize stays in memory only (persistAuthorization is off).
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  displayRequestDuration: true,
});
`;

const THEME_CSS = `body { margin: 0; }
.maitred-bar { background-color: #1c1917; padding: 10px 20px; }
.maitred-bar img { display: block; }
`;

/** The swagger-ui files the page loads; nothing else of the package is served. */
const SWAGGER_FILES = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js']);

const THEME: Record<string, { type: string; body: string }> = {
  'logo.svg': { type: 'image/svg+xml', body: LOGO_SVG },
  'favicon.svg': { type: 'image/svg+xml', body: FAVICON_SVG },
  'maitred.css': { type: 'text/css; charset=utf-8', body: THEME_CSS },
  'init.js': { type: 'text/javascript; charset=utf-8', body: INIT_JS },
};

export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Maitred API', version: '1.0.0', description: API_GUIDE },
      // Relative, so "Try it out" calls whichever host served the page (a fixed PUBLIC_BASE_URL fails
      // from any other host, and from a browser that reached the service by another name).
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The `token` from `POST /api/auth/login`' } },
      },
    },
    transform: ({ schema, url, route }) => ({ schema: describeResponses(schema as RouteSchema, route.method) as typeof schema, url }),
  });

  const hide = { schema: { hide: true } };
  app.get('/api/openapi.json', hide, async () => app.swagger());
  // A browser (it asks for HTML) goes to the operator portal; anything else (curl, API clients) to these docs.
  app.get('/', hide, async (request, reply) =>
    reply.header('Vary', 'Accept').redirect(acceptsHtml(request.headers.accept) ? '/app/' : '/docs'),
  );
  app.get('/docs/', hide, async (_request, reply) => reply.redirect('/docs'));
  app.get('/docs', hide, async (_request, reply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(PAGE));
  app.get<{ Params: { file: string } }>('/docs/theme/:file', hide, async (request, reply) => {
    const file = THEME[request.params.file];
    if (!file) return reply.callNotFound();
    return reply.type(file.type).header('Cache-Control', 'no-cache').send(file.body);
  });
  await app.register(fastifyStatic, {
    root: path.dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json'))),
    prefix: '/docs/static/',
    decorateReply: false,
    allowedPath: (pathName) => SWAGGER_FILES.has(pathName),
  });
}

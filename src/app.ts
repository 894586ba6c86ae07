/**
 * buildApp(ctx): the Fastify application with its global plugins, hooks and error handling, and every
 * module. It does not listen; main.ts does, and tests call `app.inject`.
 */
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { TrustProxy } from './config/config.js';
import type { AppContext } from './context.js';
import { registerModules } from './modules/index.js';
import { registerApiDocs } from './platform/api-docs.js';
import { etagOf, matchesEtag } from './platform/cache.js';
import { FAIR_SHARE_DEFAULTS, FairShare, registerFairShare } from './platform/fair-share.js';
import { registerLoadShedding } from './platform/load-shedding.js';
import { metrics } from './platform/metrics.js';
import { registerMetricsRoute } from './platform/metrics-route.js';
import { AppError, MAINTENANCE_MESSAGE } from './platform/errors.js';
import { ErrorBody } from './platform/http.js';
import { deferredCompilers } from './platform/lazy-schemas.js';
import { assertSafeBody, assertSafeUrlParts } from './platform/input-guard.js';
import { registerRequestContext } from './platform/request-context.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { MAX_UPLOAD_BODY_BYTES, serveUploads, withAbsoluteUploads } from './platform/uploads.js';
import { validatorCompiler, type ValidationIssue } from './platform/validation.js';
import type { App } from './platform/module.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

const isErrorBody = (payload: unknown): payload is { error: string; request_id?: unknown } =>
  typeof payload === 'object' && payload !== null && typeof (payload as { error?: unknown }).error === 'string';

/** `body.table_ids.3 must be at most 100 characters`: the part, the dotted field, what is wrong. */
function validationMessage(error: FastifyError): string {
  const issue = (error.validation?.[0] ?? {}) as Partial<ValidationIssue>;
  // "query", as clients (and the input guard's messages) call it, rather than Fastify's "querystring".
  const where = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'request');
  const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  return `${where}${field ? `.${field}` : ''} ${issue.message ?? 'is invalid'}`;
}

/** Errors Fastify raises while routing, before any hook: malformed percent-encoding, over-long ids. */
const ROUTING_ERRORS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, 'Malformed URL: invalid percent-encoding'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'URL too long: a path segment is longer than any id'],
};

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (an over-long request line or header
 * block is 431), answered in the `{ error }` shape like everything else.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'URL or headers too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request timed out']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const id = randomUUID();
  const body = JSON.stringify({ error: message, request_id: id });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * One log line per request that tells something: at info for answers of 400 and above (and, at error,
 * requests that failed while answering), at debug for everything else. Two lines per request at info
 * (pino serialising the request and the reply each time) cost a fast authenticated read about a tenth
 * of its time (docs/performance.md). Every line carries the request id (`reqId`).
 */
class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || reply.statusCode >= 400) return super.requestCompleted(error, request, reply);
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * TRUST_PROXY as Fastify takes it: a hop count trusts the last N `X-Forwarded-For` hops (Fastify's own
 * rule for a number, written out because its types take only the other forms), a list the proxies it names.
 */
function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

export type { App };

export async function buildApp(ctx: AppContext): Promise<App> {
  const compilers = deferredCompilers(validatorCompiler);
  const app = Fastify({
    loggerInstance: ctx.log as unknown as FastifyBaseLogger,
    logController: new RequestLog(),
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: MAX_UPLOAD_BODY_BYTES,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Routing errors come before any route, so no hook runs: the request id is added here by hand.
    frameworkErrors: (error, request, reply) => {
      const [status, message] = ROUTING_ERRORS[error.code] ?? [500, 'Internal server error'];
      void (reply as unknown as FastifyReply)
        .header('X-Request-Id', request.id)
        .code(status)
        .send({ error: message, request_id: request.id });
    },
    clientErrorHandler,
    // Our validator (platform/validation.ts); validators and serializers compile on each route's first
    // request, not at start-up (platform/lazy-schemas.ts).
    schemaController: { compilersFactory: compilers.factory },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('compileSchemas', compilers.compileAll);

  registerSecurityHeaders(app, { publicBaseUrl: ctx.config.publicBaseUrl });
  // Who acts, for the audit log: the request's context, filled in by the auth guard.
  registerRequestContext(app);
  await registerLoadShedding(app, ctx.config.shedding);
  // A crowd at one venue paced against the other tenants, before its bodies are parsed.
  if (ctx.config.fairSharePerTurn > 0)
    registerFairShare(app, new FairShare({ ...FAIR_SHARE_DEFAULTS, perTurn: ctx.config.fairSharePerTurn }));
  // Requests by route template (never the raw URL: ids would make a series per booking), status class, duration.
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  // JSON bodies: an empty body counts as no body (clients often send the header on bodiless POSTs).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    void defaultJson(request, body as string, done);
  });
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => {
    done(new AppError(400, 'Multipart bodies are not accepted: send images as base64 data URLs in JSON'), undefined);
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (request.url.startsWith('/api/') && (await ctx.maintenance.isOn())) {
      reply.header('Retry-After', '60');
      throw new AppError(503, MAINTENANCE_MESSAGE);
    }
    // Before any route hook: the auth guard looks a venue id from the path up in the database.
    if (!request.is404) assertSafeUrlParts(request.params, request.query);
  });

  // Every body, whichever parser read it, before schema validation (which must never see deep nesting).
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined) assertSafeBody(request.body);
  });

  // Uploads are stored as paths; every JSON answer names them absolutely under today's base URL.
  app.addHook('preSerialization', async (_request, _reply, payload) => withAbsoluteUploads(payload, ctx.config.publicBaseUrl));
  // Every `{ error }` body names its request (also in the X-Request-Id header and on its log lines), so a
  // guest's or operator's screenshot of an error leads to the request in the logs: the error handler's,
  // the 404 handler's and any route's own.
  app.addHook('preSerialization', async (request, reply, payload) =>
    reply.statusCode >= 400 && isErrorBody(payload) && payload.request_id === undefined ? { ...payload, request_id: request.id } : payload,
  );

  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config?.etag || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = etagOf(payload as string | Buffer);
    reply.header('ETag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) {
      reply.code(304);
      reply.removeHeader('Content-Type');
      reply.removeHeader('Content-Length');
      return '';
    }
    return payload;
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const fail = (status: number, body: Record<string, unknown>) => reply.code(status).send(body);
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return fail(error.status, { ...error.extra, error: error.message });
    }
    if (error.validation) return fail(400, { error: validationMessage(error) });
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fail(400, { error: 'Request body is too large' });
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return fail(400, { error: 'Unsupported content type: send JSON' });
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return fail(400, { error: 'Malformed JSON body' });
    if (status >= 400 && status < 500) return fail(status, { error: error.message });
    request.log.error({ err: error }, 'unhandled error');
    return fail(500, { error: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });

  await registerApiDocs(app);
  if (ctx.config.metrics.token) registerMetricsRoute(app, { db: ctx.db, token: ctx.config.metrics.token });
  await serveUploads(app, ctx.uploads);

  const Health = Type.Object({ ok: Type.Boolean() }, { description: 'Up' });
  // Probes answer as soon as the process listens: their fixed bodies need no compiled serializer
  // (compiling the first one loads fast-json-stringify, ~150 ms on a cold process).
  const plainJson = () => (data: unknown) => JSON.stringify(data);
  app.get(
    '/healthz',
    { schema: { tags: ['platform'], summary: 'Liveness: the process answers', response: { 200: Health } }, serializerCompiler: plainJson },
    async () => ({ ok: true }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['platform'],
        summary: 'Readiness: the database answers',
        response: { 200: { ...Health, description: 'Ready' }, 503: { ...ErrorBody, description: 'The database is unreachable' } },
      },
      serializerCompiler: plainJson,
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(ctx.db.kysely);
        return { ok: true };
      } catch {
        return reply.code(503).send({ error: 'Database unreachable' });
      }
    },
  );

  await registerModules(app, ctx);
  return app;
}

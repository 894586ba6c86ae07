/**
 * buildApp(ctx): the Fastify application with its global plugins, hooks and error handling, and every
 * module. It does not listen; main.ts does, and tests call `app.inject`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type RawServerDefault } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { AppContext } from './context.js';
import { registerModules } from './modules/index.js';
import { etagOf, matchesEtag } from './platform/cache.js';
import { AppError, MAINTENANCE_MESSAGE } from './platform/errors.js';
import { deferredCompilers, typeBoxValidatorCompiler } from './platform/lazy-schemas.js';
import { MAX_UPLOAD_BODY_BYTES } from './platform/uploads.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function validationMessage(error: FastifyError): string {
  const issue = (error.validation?.[0] ?? {}) as ValidationIssue;
  const where = error.validationContext ?? 'request';
  const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const required = issue.params?.requiredProperties ?? issue.params?.missingProperty;
  if (required) return `${where}${field ? `.${field}` : ''} is missing required field ${[required].flat().join(', ')}`;
  return `${where}${field ? `.${field}` : ''} ${issue.message ?? 'is invalid'}`;
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export async function buildApp(ctx: AppContext): Promise<App> {
  const app = Fastify({
    loggerInstance: ctx.log as unknown as FastifyBaseLogger,
    trustProxy: ctx.config.trustProxy,
    bodyLimit: MAX_UPLOAD_BODY_BYTES,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false } },
    // TypeBox validates; schemas compile on each route's first request, not at start-up (platform/lazy-schemas.ts).
    schemaController: { compilersFactory: deferredCompilers(typeBoxValidatorCompiler) },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON bodies: an empty body counts as no body (clients often send the header on bodiless POSTs).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    defaultJson(request, body as string, done);
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
  });

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
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return reply.code(error.status).send({ ...error.extra, error: error.message });
    }
    if (error.validation) return reply.code(400).send({ error: validationMessage(error) });
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(400).send({ error: 'Request body is too large' });
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(400).send({ error: 'Unsupported content type: send JSON' });
    }
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.code(400).send({ error: 'Malformed JSON body' });
    }
    if (status >= 400 && status < 500) return reply.code(status).send({ error: error.message });
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Maitred API',
        version: '1.0.0',
        description: 'Hospitality booking and operations platform: operator, public widget and webhook API.',
      },
      servers: [{ url: ctx.config.publicBaseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  await app.register(fastifyStatic, {
    root: ctx.uploads.dir,
    prefix: '/uploads/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    cacheControl: true,
    setHeaders: (res) => res.setHeader('Cache-Control', 'public, max-age=31536000, immutable'),
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.db.kysely);
      return { ok: true };
    } catch {
      return reply.code(503).send({ error: 'Database unreachable' });
    }
  });

  await registerModules(app, ctx);
  return app;
}

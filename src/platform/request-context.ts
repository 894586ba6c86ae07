/**
 * The request's context, reachable from any code a request runs (AsyncLocalStorage), so that a service
 * deep in a call chain can say who is acting without every signature carrying it: the audit log reads
 * the actor, the account, the request id and the client's address from here (platform/audit.ts).
 *
 * `registerRequestContext(app)` opens the context for every request (onRequest) and enters it again just
 * before the handler (preHandler: body parsing runs on stream events and can lose the async context).
 * The auth guard fills in the actor once it has verified the session (`setRequestActor`). Outside a
 * request (jobs, the CLI) there is no context: the actor is the system.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Who is acting: a signed-in user (operator staff or a guest), or the system. */
export interface Actor {
  type: 'user' | 'guest' | 'system';
  userId: string | null;
  name: string | null;
  email: string | null;
}

export interface RequestContext {
  requestId: string;
  ip: string | null;
  /** The signed-in caller, once the auth guard has verified the session; absent for anonymous requests. */
  actor?: Actor;
  /** The caller's operator account (operator users only). */
  operatorId?: string | null;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', userId: null, name: null, email: null };

// One store per process; each request gets its own context object within it.
const storage = new AsyncLocalStorage<RequestContext>();

declare module 'fastify' {
  interface FastifyRequest {
    requestContext?: RequestContext;
  }
}

function contextOf(request: FastifyRequest): RequestContext {
  request.requestContext ??= { requestId: String(request.id), ip: request.ip ?? null };
  return request.requestContext;
}

export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run(contextOf(request), done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    storage.run(contextOf(request), done);
  });
}

/** Called by the auth guard for the caller it verified. */
export function setRequestActor(
  request: FastifyRequest,
  user: { id: string; role: string; name: string; email: string; operator_id: string | null },
): void {
  const context = contextOf(request);
  context.actor = { type: user.role === 'client' ? 'user' : 'guest', userId: user.id, name: user.name, email: user.email };
  context.operatorId = user.operator_id;
}

/** The running request's context; undefined outside a request. */
export const currentRequestContext = (): RequestContext | undefined => storage.getStore();

/** Runs `fn` with `context` as the request context (jobs acting for someone, tests). */
export const runInRequestContext = <T>(context: RequestContext, fn: () => T): T => storage.run(context, fn);

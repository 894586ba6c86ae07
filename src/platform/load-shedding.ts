/**
 * Load shedding (`@fastify/under-pressure`): while the event loop lags more than SHED_EVENT_LOOP_DELAY_MS
 * (its mean over a second) or the heap holds more than SHED_HEAP_MB, new work answers 503 with
 * Retry-After instead of queueing until everything times out. `/healthz` keeps answering (the process is
 * alive, so a supervisor does not restart it) and `/readyz` fails (so a balancer moves traffic away until
 * the pressure passes); `/metrics` keeps answering, to show why.
 */
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const SHED_RETRY_AFTER_SECONDS = 5;
export const BUSY_MESSAGE = 'The server is busy. Please try again in a few seconds.';

export async function registerLoadShedding(app: FastifyInstance, limits: { eventLoopDelayMs: number; heapMb: number }): Promise<void> {
  if (!limits.eventLoopDelayMs && !limits.heapMb) return;
  await app.register(underPressure, {
    ...(limits.eventLoopDelayMs ? { maxEventLoopDelay: limits.eventLoopDelayMs } : {}),
    ...(limits.heapMb ? { maxHeapUsedBytes: limits.heapMb * 1024 * 1024 } : {}),
    retryAfter: SHED_RETRY_AFTER_SECONDS,
    pressureHandler: shed as unknown as FastifyUnderPressureOptions['pressureHandler'],
  });
}

/**
 * What a request meets under pressure: undefined lets it through; a body is sent as the answer (the
 * plugin sends what the handler returns, although its types say the handler returns nothing).
 */
function shed(request: FastifyRequest, reply: FastifyReply, type: string) {
  const path = request.url.split('?')[0];
  if (path === '/healthz' || path === '/metrics') return undefined;
  request.log.warn({ pressure: type }, 'shedding load');
  void reply.code(503).header('Retry-After', String(SHED_RETRY_AFTER_SECONDS));
  return { error: path === '/readyz' ? 'Under pressure: not ready for more traffic' : BUSY_MESSAGE };
}

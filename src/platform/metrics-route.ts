/**
 * `GET /metrics` (Prometheus text format): on the API's port for a bearer of METRICS_TOKEN, and/or on
 * METRICS_PORT (main.ts), where only what can reach that port may scrape. Off when neither is set. The
 * readings taken from the database for a scrape (the outbox, the pool) are two small queries.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connect.js';
import { metrics } from './metrics.js';

/** The scrape's answer: the metrics text with the database readings taken now. */
export async function scrape(db: Db): Promise<string> {
  const outbox = await db.kysely
    .selectFrom('mail_outbox')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min('created_at').as('oldest')])
    .where('status', '!=', 'sent')
    .groupBy('status')
    .execute();
  return metrics.render({
    outbox: outbox.map((row) => ({ channel: 'mail', status: row.status, count: Number(row.count), oldestAt: row.oldest })),
    pool: db.poolStats?.(),
    now: new Date(),
  });
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Registers `/metrics` on `app`; with a token, only a request bearing it is answered (else 401). */
export function registerMetricsRoute(app: FastifyInstance, options: { db: Db; token?: string }): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (options.token) {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!sameSecret(given, options.token)) return reply.code(401).send({ error: 'A metrics token is required' });
    }
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.contentType)
      .send(await scrape(options.db));
  });
}

/**
 * `/metrics` on a port of its own (METRICS_PORT), for a scraper on a private network: a bare HTTP server
 * beside the API (the API's hooks, limits and shedding do not apply to it). With METRICS_TOKEN, the token is asked here too.
 */
export async function serveMetricsPort(options: {
  db: Db;
  port: number;
  host: string;
  token?: string;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (path !== '/metrics') return send(404, 'application/json', JSON.stringify({ error: 'Only /metrics is served here' }));
    if (options.token && !sameSecret(given, options.token))
      return send(401, 'application/json', JSON.stringify({ error: 'A metrics token is required' }));
    scrape(options.db).then(
      (text) => send(200, metrics.contentType, text),
      () => send(500, 'application/json', JSON.stringify({ error: 'Metrics could not be read' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Request logging (app.ts): at info, only answers of 400 and above get a line; at debug, every request
 * gets its two. Each line carries the request id the response names in X-Request-Id.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createContext } from '../../src/context.js';
import { createOperator, createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Another app on the test database whose log lines are kept. */
async function loggingApp(level: 'info' | 'debug'): Promise<{ app: App; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = await buildApp(createContext(t.config, t.db, { clock: t.clock, log }));
  await app.ready();
  lines.length = 0;
  return { app, lines };
}

describe('request log', () => {
  it('at info, writes nothing for successful requests and one line for a refused one', async () => {
    const { app, lines } = await loggingApp('info');
    try {
      const op = await createOperator(t);
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
      expect(lines).toEqual([]);

      const refused = await app.inject({ url: '/api/auth/me', headers: { 'x-request-id': 'req-refused-1' } });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['x-request-id']).toBe('req-refused-1');
      expect(lines).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'request completed',
          reqId: 'req-refused-1',
          res: { statusCode: 401 },
          responseTime: expect.any(Number),
        }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('at debug, writes every request as it arrives and as it completes, with its request id', async () => {
    const { app, lines } = await loggingApp('debug');
    try {
      const res = await app.inject({ url: '/healthz' });
      expect(res.statusCode).toBe(200);
      const reqId = res.headers['x-request-id'];
      expect(lines.filter((line) => line.reqId === reqId).map((line) => [line.level, line.msg])).toEqual([
        [20, 'incoming request'],
        [20, 'request completed'],
      ]);
    } finally {
      await app.close();
    }
  });
});

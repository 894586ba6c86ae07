/** Shared set-up of the webhooks tests: a local receiver that answers what it is told and keeps what it got. */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver: answers the statuses queued in `answers` in turn (then 200) and records each request. */
export async function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.shift() ?? 200;
      if (status >= 300 && status < 400) response.setHeader('location', 'http://127.0.0.1:1/elsewhere');
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status < 300 ? 'thanks' : `status ${status} `.repeat(200));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies a Maitred-Signature header against the raw body as a receiver would; answers the timestamp. */
export function verifySignature(header: string | string[] | undefined, body: string, secret: string): number {
  expect(typeof header).toBe('string');
  const parts = (header as string).split(',').map((part) => part.split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  const signatures = parts.filter(([key]) => key === 'v1').map(([, value]) => value);
  expect(t).toMatch(/^\d+$/);
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  expect(signatures).toContain(expected);
  return Number(t);
}

/** The stock-image adapter's timeout: a provider that never answers is a 502 once the timeout passes. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { createImageSearch } from './image-search.js';

let hanging: http.Server;
let base: string;
beforeAll(async () => {
  hanging = http.createServer(() => undefined);
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});

describe('image search', () => {
  it('answers 502 when the provider does not answer in time', async () => {
    const search = createImageSearch({ accessKey: 'k', apiBase: base, log: pino({ level: 'silent' }), timeoutMs: 200 });
    const started = Date.now();
    const error = await search.find('Anything', null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(502);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

/**
 * Serving the portal at /app/: hashed assets immutable, the app's paths answered by index.html (no-cache,
 * framed only by this origin, with the server's clock), file-like paths 404, and 503 while there is no build.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/helpers/app.js';
import { portalBuildLoader } from './portal-build.js';
import { portalRoutes } from './portal.routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('the portal at /app/', () => {
  it('answers app paths with the page: no-cache, framed only by this origin, with the server clock', async () => {
    for (const url of ['/app/', '/app/floor?date=2026-06-15&view=list', '/app/door', '/app/some/deep/path']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.body).toContain(`<meta name="server-now" content="${TEST_NOW}" />`);
      expect(res.body).toMatch(/<script type="module" crossorigin src="\/app\/assets\/index-[\w-]+\.js"><\/script>/);
    }
    const bare = await t.app.inject({ url: '/app' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/app/');
  });

  it('serves the hashed assets immutable for a year, and 404s (uncached) any other file-like path', async () => {
    const page = (await t.app.inject({ url: '/app/' })).body;
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(page)![1];
    const res = await t.app.inject({ url: script });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/app/assets/index-gone.js', '/app/favicon.ico', '/app/floor/old.js', '/app/assets/..%2F.built']) {
      const missing = await t.app.inject({ url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['cache-control']).toBe('no-store');
      expect(missing.json()).toEqual({ error: expect.any(String), request_id: expect.any(String) });
    }
  });

  it('answers 503 { error } while the portal is not built, and finds a build made later', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-'));
    let now = 0;
    const app = Fastify();
    await app.register(portalRoutes, { build: portalBuildLoader(dir, () => now), clock: t.clock });
    try {
      const res = await app.inject({ url: '/app/floor' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: expect.stringContaining('not built') });
      fs.mkdirSync(path.join(dir, 'assets'));
      fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>x</title></head><body></body></html>');
      fs.writeFileSync(path.join(dir, '.built'), 'now');
      now += 10_000;
      expect((await app.inject({ url: '/app/floor' })).statusCode).toBe(200);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is left out of the API document', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/app'))).toEqual([]);
  });
});

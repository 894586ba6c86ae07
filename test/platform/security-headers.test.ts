/**
 * Security headers: on the API (successes and errors alike), on /docs (with a policy swagger-ui works
 * under: see test/browser/docs.test.ts), HSTS only for an HTTPS base URL, and uploaded images served
 * sandboxed, unsniffed and loadable from any origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, TINY_IMAGES, type TestApp } from '../helpers/app.js';

let http: TestApp;
let https: TestApp;
beforeAll(async () => {
  [http, https] = await Promise.all([
    // A page that sets its own, stricter policy, as the simulated payment provider's pages do.
    createTestApp({}, (app) => {
      app.get('/test/own-policy', async (_request, reply) =>
        reply.headers({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" }).send('<p>hi</p>'),
      );
    }),
    createTestApp({ PUBLIC_BASE_URL: 'https://maitred.example' }),
  ]);
});
afterAll(async () => Promise.all([http.close(), https.close()]));

/** The CSP as a map of directive → sources. */
const cspOf = (header: unknown) =>
  new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );

describe('the API and its docs', () => {
  it('sends nosniff, no framing, no referrer and a content security policy on every kind of answer', async () => {
    const { op } = await setupVenue(http);
    const answers = await Promise.all([
      http.app.inject({ url: '/api/my-venues', headers: op.headers }), // 200
      http.app.inject({ url: '/api/my-venues' }), // 401
      http.app.inject({ url: '/api/nope' }), // 404
      http.app.inject({ method: 'POST', url: '/api/auth/login', payload: '{bad', headers: { 'content-type': 'application/json' } }), // 400
      http.app.inject({ url: '/healthz' }),
      http.app.inject({ url: '/docs' }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 404, 400, 200, 200]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const csp = cspOf(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('lets /docs run swagger-ui from this origin only: its scripts, styles, data: images and calls back here', async () => {
    const csp = cspOf((await http.app.inject({ url: '/docs' })).headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  it('leaves a page its own policy, with the other headers still set', async () => {
    const res = await http.app.inject({ url: '/test/own-policy' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('sends HSTS and upgrades requests only when PUBLIC_BASE_URL is https', async () => {
    const plain = await http.app.inject({ url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(cspOf(plain.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(false);

    const secure = await https.app.inject({ url: '/healthz' });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(cspOf(secure.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
    expect((await https.app.inject({ url: '/api/nope' })).headers['strict-transport-security']).toBe('max-age=31536000');
  });
});

describe('uploaded images', () => {
  it('are served unsniffed, sandboxed, cached forever and loadable from any origin', async () => {
    const { api } = await setupVenue(http);
    const url = (await api.post('/branding-logo', { data: TINY_IMAGES.png })).json().url as string;
    const res = await http.app.inject({ url: new URL(url).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Guest-facing: widgets and mails on other origins embed them.
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const csp = cspOf(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.has('sandbox')).toBe(true);
    expect(csp.has('script-src')).toBe(false);
  });

  it('a missing upload is still a nosniff 404', async () => {
    const res = await http.app.inject({ url: `/uploads/${'0'.repeat(64)}.png` });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

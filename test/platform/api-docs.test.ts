/**
 * The API documentation: every operation summarised and every response described, a relative server
 * so "Try it out" works from any host, the getting-started guide, and the docs page as Maitred's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { acceptsHtml, describeResponses } from '../../src/platform/api-docs.js';

let t: TestApp;
// A base URL that is not where the tests call from: the document must not depend on it.
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_BASE_URL: 'https://api.maitred.example' });
});
afterAll(async () => t.close());

interface Operation {
  summary?: string;
  responses: Record<string, { description?: string }>;
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

async function operations(): Promise<[string, Operation][]> {
  const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}

describe('GET /api/openapi.json', () => {
  it('gives every operation a summary', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(150);
    const missing = ops.filter(([, op]) => typeof op.summary !== 'string' || op.summary.trim() === '').map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('describes every response, none as "Default Response"', async () => {
    const undescribed = (await operations()).flatMap(([name, op]) =>
      Object.entries(op.responses)
        .filter(([, response]) => !response.description || response.description === 'Default Response')
        .map(([status]) => `${name} ${status}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('describes each status by what it means, and successes by their body', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const put = doc.paths['/api/my-venues/{id}'].put.responses;
    expect(put['200'].description).toBe('Done: `{ success: true }`');
    expect(put['400'].description).toMatch(/Invalid request/);
    expect(put['401'].description).toMatch(/Not signed in/);
    expect(put['403'].description).toMatch(/not allowed/);
    expect(put['404'].description).toMatch(/Not found/);
    expect(doc.paths['/api/auth/login'].post.responses['429'].description).toMatch(/Retry-After/);
    expect(doc.paths['/api/my-venues'].get.responses['200'].description).toBe('OK: the requested data');
    expect(doc.paths['/api/my-venues/{venueId}/tables'].post.responses['200'].description).toMatch(/^Created/);
  });

  it('uses a relative server, whatever PUBLIC_BASE_URL is', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(JSON.stringify(doc.servers)).not.toContain('maitred.example');
    // The paths are not rewritten relative to the old base URL either.
    expect(doc.paths['/api/auth/login']).toBeDefined();
  });

  it('opens with a getting-started guide', async () => {
    const { info } = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(info.title).toBe('Maitred API');
    for (const part of [
      'POST /api/auth/login',
      'Authorization: Bearer',
      'limit',
      'offset',
      '`page`',
      'paging=cursor',
      '{ "error"',
      '429',
      'Retry-After',
    ]) {
      expect(info.description, part).toContain(part);
    }
  });

  it('documents the health checks, and the new venue read as an extension', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.paths['/healthz'].get.summary).toMatch(/Liveness/);
    expect(doc.paths['/readyz'].get.responses['503'].description).toMatch(/database/);
    expect(doc.paths['/api/my-venues/{id}'].get.description).toMatch(/^Extension/);
  });
});

describe('the docs page', () => {
  it('serves only the swagger-ui files the page loads', async () => {
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js'])
      expect((await t.app.inject({ url: `/docs/static/${file}` })).statusCode).toBe(200);
    for (const file of ['index.html', 'swagger-initializer.js', 'package.json', '../package.json']) {
      expect((await t.app.inject({ url: `/docs/static/${file}` })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: '/docs/theme/nothing.js' })).statusCode).toBe(404);
  });

  it('GET / redirects API clients to /docs and browsers to the portal at /app/', async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    for (const [accept, location] of [
      [undefined, '/docs'],
      ['*/*', '/docs'],
      ['application/json', '/docs'],
      ['text/html;q=0, */*', '/docs'],
      [browser, '/app/'],
      ['TEXT/HTML', '/app/'],
    ] as const) {
      const res = await t.app.inject({ url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode, accept).toBe(302);
      expect(res.headers.location, accept).toBe(location);
      expect(res.headers.vary).toMatch(/accept/i);
    }
  });

  it('is titled "Maitred API", with our logo and favicon instead of the framework’s', async () => {
    const page = await t.app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Maitred API</title>');
    expect(page.body).not.toMatch(/swagger ui|fastify/i);
    expect(page.body).toContain('theme/favicon.svg');
    const logo = await t.app.inject({ url: /<img src="([^"]+)"/.exec(page.body)![1] });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.body).toContain('Maitred API');
    const init = await t.app.inject({ url: /<script src="(\/docs\/theme\/[^"]+)"/.exec(page.body)![1] });
    expect(init.body).toContain("url: '/api/openapi.json'");
    expect(init.body).not.toMatch(/fastify|petstore/i);
  });
});

describe('acceptsHtml', () => {
  it('is true only when text/html is named with a non-zero quality', () => {
    expect(acceptsHtml('text/html')).toBe(true);
    expect(acceptsHtml('application/json, text/html;q=0.5')).toBe(true);
    expect(acceptsHtml('text/html;q=0')).toBe(false);
    expect(acceptsHtml('text/*')).toBe(false);
    expect(acceptsHtml(undefined)).toBe(false);
  });
});

describe('describeResponses', () => {
  it('keeps a response’s own description and fills the others without touching the route’s schema', () => {
    const own = { type: 'object', description: 'The venue' };
    const bare = { type: 'object' };
    const schema = { response: { 200: own, 201: bare, 409: bare, 418: bare } };
    const described = describeResponses(schema, 'POST')!;
    expect(described.response).toEqual({
      200: own,
      201: { type: 'object', description: 'OK: the change was made' },
      409: { type: 'object', description: expect.stringMatching(/Conflicts/) },
      418: { type: 'object', description: 'Status 418' },
    });
    expect(bare).toEqual({ type: 'object' });
    expect(describeResponses({ response: { 200: bare } }, ['GET', 'HEAD'])!.response!['200'].description).toBe('OK: the requested data');
  });
});

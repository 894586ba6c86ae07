/** The HTTP platform: error shapes, parsing, request ids, OpenAPI, health, caching helpers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.get('/api/test/boom', async () => {
      throw new Error('secret detail at /work/main/src/x.ts');
    });
    app.get('/api/test/etag', { config: { etag: true } }, async () => ({ hello: 'world' }));
    app.post('/api/test/echo', { schema: { body: Type.Object({ n: Type.Integer({ minimum: 1 }) }) } }, async (request) => request.body);
  });
});
afterAll(async () => t.close());

describe('errors', () => {
  it('unknown routes are 404 { error }', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: expect.stringContaining('not found') });
  });

  it('unexpected errors are 500 with a fixed message and no details', async () => {
    const res = await t.app.inject({ url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: 'Internal server error' });
    expect(res.body).not.toContain('/work');
  });

  it('schema failures are 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: { n: 0 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^body\.n /);
    const missing = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: {} });
    expect(missing.json().error).toMatch(/required field n/);
  });

  it('malformed JSON is 400, multipart is 400, other content types are 400', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ request_id: expect.any(String), error: 'Malformed JSON body' });
    const multipart = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="n"\r\n\r\n1\r\n--x--\r\n',
    });
    expect(multipart.statusCode).toBe(400);
    expect(multipart.json().error).toMatch(/Multipart/);
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<n>1</n>',
    });
    expect(xml.statusCode).toBe(400);
  });

  it('an empty JSON body counts as no body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('validation messages on real routes', () => {
  it('list the allowed values and name human formats, never a regular expression', async () => {
    const op = await createOperator(t);
    const venue = `/api/my-venues/${await insertVenue(t, op.operatorId)}`;
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        `${venue}/tables/set-type`,
        { table_ids: ['tbl_x'], table_type: 'round' },
        'body.table_type must be one of: standard, low, high, booth, bar',
      ],
      ['PUT', `${venue}/smart-tables`, { reassign_time: '25:00' }, 'body.reassign_time must be a clock time as HH:MM (24-hour)'],
      ['GET', `${venue}/tables?date=15/06/2026`, undefined, 'query.date must be a date as YYYY-MM-DD'],
      ['PUT', `${venue}/branding`, { accent_color: 'red' }, 'body.accent_color must be a hex colour, #rgb or #rrggbb'],
      ['PUT', `${venue}/widget-settings/popup`, { enabled: true }, 'params.type must be one of: bookings, events, vouchers, combo'],
      ['PUT', `${venue}/widget-theme`, { show_map: 'yes' }, 'body.show_map must be one of: true, false, 0, 1'],
      [
        'POST',
        `${venue}/bundles`,
        { name: 'B', applicable_profiles: ['tables', 'tables'] },
        'body.applicable_profiles must not list tables twice',
      ],
      [
        'POST',
        `${venue}/shifts`,
        { name: 'S', days_of_week: ['monday'] },
        'body.days_of_week.0 must be one of: mon, tue, wed, thu, fri, sat, sun',
      ],
    ];
    for (const [method, url, payload, message] of cases) {
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: op.headers,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ request_id: expect.any(String), error: message });
    }
  });
});

describe('authentication comes before parsing and validation', () => {
  it('answers 401 to an unauthenticated request with an invalid or malformed body, revealing nothing', async () => {
    const invalid = await t.app.inject({ method: 'PUT', url: '/api/my-operator', payload: { name: 42 } });
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json()).toEqual({ request_id: expect.any(String), error: 'Session expired. Please log in again.' });
    const malformed = await t.app.inject({
      method: 'PUT',
      url: '/api/my-operator',
      headers: { 'content-type': 'application/json' },
      payload: '{oops',
    });
    expect(malformed.statusCode).toBe(401);
    expect(malformed.headers['cache-control']).toBe('private, no-store');
  });

  it('signed-in callers still get the validation error, marked private', async () => {
    const op = await createOperator(t);
    const res = await t.app.inject({ method: 'PUT', url: '/api/my-operator', headers: op.headers, payload: { name: 42 } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });
});

describe('request ids', () => {
  it('echoes a sane incoming X-Request-Id and mints one otherwise', async () => {
    const given = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const minted = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('health and docs', () => {
  it('answers liveness and readiness', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ ok: true });
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({ ok: true });
  });

  it('serves the OpenAPI document generated from the route schemas, and the docs UI', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearer: [] }]);
    const ui = await t.app.inject({ url: '/docs/' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe('ETag', () => {
  it('sends an ETag and answers 304 with an empty body when If-None-Match matches', async () => {
    const first = await t.app.inject({ url: '/api/test/etag' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await t.app.inject({ url: '/api/test/etag', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await t.app.inject({ url: '/api/test/etag', headers: { 'if-none-match': 'W/"other"' } });
    expect(other.statusCode).toBe(200);
  });
});

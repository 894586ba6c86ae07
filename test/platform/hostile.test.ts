/**
 * Hostile input gets a clean `{ error }` everywhere and fast: control characters in bodies, path ids
 * and query strings; deep nesting; huge arrays and strings; over-long URLs. The last test walks every
 * documented route with such requests and allows no 500; the payment webhook gets signed hostile bodies.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/modules/payments/payments.test-helpers.js';
import { createOperator, createTestApp, insertVenue, login, type TestApp, type TestOperator } from '../helpers/app.js';
import {
  documentedRoutes,
  hostileBodies,
  hostileWebhookBodies,
  leastBody,
  hostileQueries,
  nestedJson,
  unboundedFields,
  urlOf,
} from '../helpers/hostile.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;

beforeAll(async () => {
  // Over a thousand probes reach the rate-limited public creates: limits are tested on their own, here
  // they must not turn a probe's answer into a 429.
  t = await createTestApp({ RATE_LIMITS: 'public_booking=100000/60,event_tickets=100000/60' });
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId);
});
afterAll(async () => t.close());

/** Sends `payload` as JSON; a string payload is sent as it is, as JSON text. */
const send = (method: string, url: string, payload?: unknown, headers: Record<string, string> = op.headers) =>
  t.app.inject({
    method: method as 'POST',
    url,
    headers: typeof payload === 'string' ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const CONTROL_MESSAGE = /must not contain control characters/;

describe('control characters', () => {
  it('a NUL in the login email is a 400 every time, never a 500, and leaves real logins working', async () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const res = await send('POST', '/api/auth/login', { email: 'a\u0000@x.test', password: 'whatever-it-is' }, {});
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ request_id: expect.any(String), error: 'body.email must not contain control characters' });
    }
    expect(await login(t, op.email)).toEqual(expect.any(String));
  });

  it('in body fields (venue name, table number, tag label, role name) is a 400 and stores nothing', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/api/my-venues', { name: 'Bar\u0000', address: '1 High Street' }, 'body.name'],
      ['POST', `/api/my-venues/${venueId}/tables`, { table_number: '1\u0000' }, 'body.table_number'],
      ['POST', `/api/my-venues/${venueId}/tags`, { kind: 'guest', category: 'VIP', label: 'gold\u0000' }, 'body.label'],
      ['POST', '/api/my-roles', { name: 'Host\u0000' }, 'body.name'],
      ['POST', '/api/my-roles', { name: 'Host', description: 'bell\u0007' }, 'body.description'],
      ['PUT', `/api/my-venues/${venueId}`, { description: 'next line\u0085' }, 'body.description'],
      [
        'POST',
        `/api/my-venues/${venueId}/floors`,
        { name: 'Main', canvas_data: [{ type: 'label', text: 'esc\u001b[31m' }] },
        'body.canvas_data.0.text',
      ],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await send(method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json()).toEqual({ request_id: expect.any(String), error: `${field} must not contain control characters` });
    }
    expect((await send('GET', `/api/my-venues/${venueId}/tables`)).json().data).toEqual([]);
    expect((await send('GET', '/api/my-roles')).json().data.map((role: { name: string }) => role.name)).toEqual(['Owner']);
  });

  it('in a field name, or as half a surrogate pair, is a 400', async () => {
    const key = await send('POST', '/api/my-roles', { name: 'Host', ['x\u0000']: 1 });
    expect(key.json()).toEqual({ request_id: expect.any(String), error: 'body has a field name that is not valid text' });
    const half = await send('POST', '/api/my-roles', { name: 'Host \ud83d' });
    expect(half.statusCode).toBe(400);
    expect(half.json()).toEqual({ request_id: expect.any(String), error: 'body.name must be valid Unicode text' });
  });

  it('in a path id is a 400 before anything looks it up', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/my-roles/%E2%80%AE%00abc'],
      ['GET', '/api/my-roles/rol_%00'],
      ['GET', `/api/my-venues/${venueId}%00/tables`],
      ['PUT', `/api/my-venues/${venueId}/tables/tbl%01x`],
      ['GET', '/api/public/venues/%00/booking-widget-config'],
    ]) {
      const res = await send(method, url, method === 'PUT' ? { table_number: '1' } : undefined);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toMatch(CONTROL_MESSAGE);
    }
    // Anonymous callers learn no more: the id is malformed whoever asks.
    expect((await send('DELETE', '/api/my-roles/%00', undefined, {})).statusCode).toBe(400);
  });

  it('in a query string is a 400, in values and in names', async () => {
    const value = await send('GET', '/api/my-operator/users-search?q=ab%00');
    expect(value.statusCode).toBe(400);
    expect(value.json()).toEqual({ request_id: expect.any(String), error: 'query.q must not contain control characters' });
    const repeated = await send('GET', `/api/my-venues/${venueId}/tag-catalogue?kind=guest&kind=%07`);
    expect(repeated.json()).toEqual({ request_id: expect.any(String), error: 'query.kind must not contain control characters' });
    const name = await send('GET', `/api/my-venues/${venueId}/tables?%00=1`);
    expect(name.json()).toEqual({ request_id: expect.any(String), error: 'query has a parameter name that is not valid text' });
  });

  it('tab, newline and carriage return are accepted and kept in multi-line text', async () => {
    const description = 'Line one\r\nLine two\n\tindented';
    expect((await send('PUT', `/api/my-venues/${venueId}`, { description })).statusCode).toBe(200);
    const venue = (await send('GET', '/api/my-venues')).json().data.find((row: { id: string }) => row.id === venueId);
    expect(venue.description).toBe(description);
  });
});

describe('the shape of a body', () => {
  it('nesting deeper than 32 levels is a 400 before validation, wherever it is', async () => {
    const deep = { error: 'body is nested deeper than 32 levels', request_id: expect.any(String) };
    const cases: [string, string, string][] = [
      ['PUT', '/api/my-roles/rol_x', `{"name":"R","permissions":${nestedJson(5000)}}`],
      ['POST', `/api/my-venues/${venueId}/bundles`, `{"name":"B","applicable_profiles":${nestedJson(5000)}}`],
      ['PUT', `/api/my-venues/${venueId}/bundles/bnd_x`, `{"name":"B","applicable_profiles":${nestedJson(5000)}}`],
      [
        'POST',
        `/api/my-venues/${venueId}/floors`,
        `{"name":"F","canvas_data":[{"type":"label","deep":${'{"a":'.repeat(4200)}1${'}'.repeat(4200)}}]}`,
      ],
      ['POST', '/api/auth/login', nestedJson(100_000)],
      // 33 levels: one too many (the canvas item is level 3).
      ['POST', `/api/my-venues/${venueId}/floors`, `{"name":"F","canvas_data":[{"type":"label","x":${nestedJson(30)}}]}`],
    ];
    for (const [method, url, payload] of cases) {
      const res = await send(method, url, payload, url.includes('/auth/') ? {} : op.headers);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual(deep);
    }
  });

  it('numbers beyond what JSON can hold (1e400) are a 400', async () => {
    const res = await send('POST', `/api/my-venues/${venueId}/tables`, '{"table_number":"1","capacity":1e400}');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: 'body.capacity must be a finite number' });
  });
});

describe('URLs', () => {
  it('a path segment longer than any id is a 414 { error }', async () => {
    const res = await send('GET', `/api/my-venues/${'v'.repeat(150)}/tables`);
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: expect.stringMatching(/too long/) });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('malformed percent-encoding in the path is a 400 { error }', async () => {
    const res = await send('GET', `/api/my-venues/%E0%A4%A/tables`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: expect.stringMatching(/Malformed URL/) });
  });
});

describe('on a listening server', () => {
  let base: string;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('a 100,000-element array is refused within 2 s while /healthz keeps answering within 1 s', async () => {
    const body = JSON.stringify({ name: 'Bundle', applicable_profiles: Array(100_000).fill('tables') });
    let done = false;
    const healthLatencies: number[] = [];
    const probe = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${base}/healthz`);
        healthLatencies.push(performance.now() - started);
        expect(res.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const res = await fetch(`${base}/api/my-venues/${venueId}/bundles`, {
      method: 'POST',
      headers: { ...op.headers, 'content-type': 'application/json' },
      body,
    });
    const elapsed = performance.now() - started;
    done = true;
    await probe;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ request_id: expect.any(String), error: 'body.applicable_profiles must have at most 2 items' });
    expect(elapsed).toBeLessThan(2000);
    expect(healthLatencies.length).toBeGreaterThan(0);
    expect(Math.max(...healthLatencies)).toBeLessThan(1000);
  });

  it('a URL beyond the HTTP header limit is a 431 { error }', async () => {
    const res = await fetch(`${base}/api/my-venues/${venueId}/tables?q=${'x'.repeat(20_000)}`, { headers: op.headers });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ request_id: expect.any(String), error: 'URL or headers too large' });
  });
});

describe('every documented route', () => {
  it('bounds every array and string it takes in a body or query string', async () => {
    const doc = (await send('GET', '/api/openapi.json')).json();
    const unbounded = documentedRoutes(doc).flatMap((route) => [
      ...unboundedFields(route.body, `${route.method} ${route.path} body`),
      ...route.query.flatMap(({ name, schema }) => unboundedFields(schema, `${route.method} ${route.path} query.${name}`)),
    ]);
    // Image uploads: a base64 data URL bounded by the body limit, refused by the upload service with its
    // own message when too large.
    expect(unbounded.filter((field) => !/ body\.data$/.test(field))).toEqual([]);
  });

  it('answers hostile bodies, ids and query strings with a clean error and never a 500', async () => {
    const doc = (await send('GET', '/api/openapi.json')).json();
    const routes = documentedRoutes(doc).filter((route) => route.path !== '/api/auth/logout');
    expect(routes.length).toBeGreaterThan(90);

    // One of each thing the operator routes create (parents first), so that routes on an item reach it.
    const created = new Map<string, string>();
    const creates = routes.filter((route) => route.method === 'POST' && route.path.startsWith('/api/my') && route.body);
    for (const route of creates.sort((a, b) => a.path.length - b.path.length)) {
      const res = await send('POST', urlOf(route, venueId, 'zzz_unknown', created), leastBody(route.body!));
      const id = safeJson(res.body)?.id;
      if (res.statusCode < 300 && typeof id === 'string') created.set(route.path, id);
    }
    expect(created.size).toBeGreaterThan(15);

    // A documented 502/503 (an unconfigured or failing dependency, such as the stock-photo service) is
    // a clean answer; any other 5xx is a failure.
    type Probe = { label: string; method: string; url: string; payload?: unknown; expect?: number; declared5xx: number[] };
    const probes: Probe[] = [];
    for (const route of routes) {
      const url = urlOf(route, venueId, 'zzz_unknown', created);
      const name = `${route.method} ${route.path}`;
      if (!['GET', 'DELETE'].includes(route.method)) {
        for (const [kind, payload] of hostileBodies(route.body)) {
          const refusedEarly = /deep|NUL|control/.test(kind) ? 400 : undefined;
          probes.push({
            label: `${name}: ${kind}`,
            method: route.method,
            url,
            payload,
            expect: refusedEarly,
            declared5xx: route.declared5xx,
          });
        }
      }
      for (const [kind, query] of hostileQueries(route.query)) {
        probes.push({
          label: `${name}: query ${kind}`,
          method: route.method,
          url: `${url}?${query}`,
          expect: /NUL|control/.test(kind) ? 400 : undefined,
          declared5xx: route.declared5xx,
        });
      }
      if (route.pathParams.length > 0) {
        probes.push({
          label: `${name}: NUL ids`,
          method: route.method,
          url: urlOf(route, `${venueId}%00`, '%E2%80%AE%00x'),
          expect: 400,
          declared5xx: [],
        });
        probes.push({
          label: `${name}: over-long ids`,
          method: route.method,
          url: urlOf(route, 'v'.repeat(150), 'i'.repeat(150)),
          expect: 414,
          declared5xx: [],
        });
      }
    }
    // Writes that delete come last, so the other probes still find the venue's things.
    probes.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

    const failures: string[] = [];
    const BATCH = 8;
    for (let start = 0; start < probes.length; start += BATCH) {
      await Promise.all(
        probes.slice(start, start + BATCH).map(async (probe) => {
          const res = await send(probe.method, probe.url, probe.payload);
          const body = res.body.length > 200 ? `${res.body.slice(0, 200)}…` : res.body;
          if (res.statusCode >= 500 && !probe.declared5xx.includes(res.statusCode))
            failures.push(`${probe.label} → ${res.statusCode} ${body}`);
          else if (probe.expect && res.statusCode !== probe.expect)
            failures.push(`${probe.label} → ${res.statusCode}, expected ${probe.expect}: ${body}`);
          else if (res.statusCode >= 400 && typeof safeJson(res.body)?.error !== 'string')
            failures.push(`${probe.label} → ${res.statusCode} without { error }: ${body}`);
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(probes.length).toBeGreaterThan(1000);
  });
});

describe('the payment webhook', () => {
  it('answers signed hostile bodies with a clean 400 (or 200 for what it ignores), never a 5xx, and records nothing refused', async () => {
    const recorded = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('webhook_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await recorded();
    const probes = hostileWebhookBodies();
    const failures: string[] = [];
    let refused = 0;
    for (let start = 0; start < probes.length; start += 8) {
      await Promise.all(
        probes.slice(start, start + 8).map(async (probe) => {
          const signature = sign(probe.raw, { timestamp: Math.floor(t.clock.now().getTime() / 1000) });
          const res = await send('POST', '/api/webhooks/payment', probe.raw, { 'payment-signature': signature });
          if (res.statusCode >= 500) failures.push(`${probe.label} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          else if (probe.expect && res.statusCode !== probe.expect)
            failures.push(`${probe.label} → ${res.statusCode}, expected ${probe.expect}`);
          else if (res.statusCode !== 200 && res.statusCode !== 400) failures.push(`${probe.label} → ${res.statusCode}`);
          else if (res.statusCode === 400 && typeof safeJson(res.body)?.error !== 'string')
            failures.push(`${probe.label} → 400 without { error }`);
          if (res.statusCode === 400) refused += 1;
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(probes.length).toBeGreaterThan(500);
    // What was refused left no trace; what was acknowledged was recorded once.
    expect(await recorded()).toBe(before + probes.length - refused);
  });
});

function safeJson(text: string): { error?: unknown; id?: unknown } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Every route of the profiles module against the guard: 401 without a session, 404 for another
 * operator's owner, 403 for a role without `profiles`, and for a `profiles:read` role on every write.
 * Bodies are valid, so the answers come from the guard and not from validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, expectCreated, setupVenue, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: object][];
let headers: Record<'stranger' | 'none' | 'reader', Record<string, string>>;
let venueId: string;

beforeAll(async () => {
  t = await createTestApp();
  const setup = await setupVenue(t);
  venueId = setup.venueId;
  const { api, op } = setup;
  const ids: Record<string, string> = {};
  for (const family of ['list', 'table', 'event', 'ticket'])
    ids[family] = expectCreated(await api.post(`/${family}-profiles`, { name: 'P' }));
  const gid = expectCreated(await api.post('/admission-groups', { name: 'G' }));
  const rid = expectCreated(await api.post(`/admission-groups/${gid}/rules`, { name: 'R' }));
  const pid = expectCreated(await api.post('/payment-policies', { name: 'PP' }));
  routes = [
    ...['list', 'table', 'event', 'ticket'].flatMap(
      (family) =>
        [
          ['GET', `/${family}-profiles`],
          ['POST', `/${family}-profiles`, { name: 'x' }],
          ['PUT', `/${family}-profiles/${ids[family]}`, { name: 'x' }],
          ['DELETE', `/${family}-profiles/${ids[family]}`],
        ] as typeof routes,
    ),
    ['GET', '/admission-groups'],
    ['POST', '/admission-groups', { name: 'x' }],
    ['PUT', `/admission-groups/${gid}`, { name: 'x' }],
    ['DELETE', `/admission-groups/${gid}`],
    ['POST', `/admission-groups/${gid}/rules`, { name: 'x' }],
    ['PUT', `/admission-groups/${gid}/rules/${rid}`, { name: 'x' }],
    ['DELETE', `/admission-groups/${gid}/rules/${rid}`],
    ['GET', '/booking-policies'],
    ['PUT', '/booking-policies', { tables: 'x' }],
    ['GET', '/payment-policies'],
    ['POST', '/payment-policies', { name: 'x' }],
    ['PUT', `/payment-policies/${pid}`, { name: 'x' }],
    ['DELETE', `/payment-policies/${pid}`],
  ];
  headers = {
    stranger: (await createOperator(t, 'Stranger')).headers,
    none: (await createStaff(t, op, { catalogue: 'write', tables: 'write' })).headers,
    reader: (await createStaff(t, op, { profiles: 'read' })).headers,
  };
});
afterAll(async () => t.close());

const call = (method: string, path: string, body: object | undefined, h: Record<string, string>) =>
  t.app.inject({ method: method as 'GET', url: `/api/my-venues/${venueId}${path}`, headers: h, ...(body ? { payload: body } : {}) });

describe('profiles routes and the guard', () => {
  it('covers every route of the module', () => {
    expect(routes).toHaveLength(4 * 4 + 7 + 2 + 4);
  });

  it('answers 401 without a session, 404 to another operator, 403 without profiles', async () => {
    for (const [method, path, body] of routes) {
      expect((await call(method, path, body, {})).statusCode, `${method} ${path}`).toBe(401);
      expect((await call(method, path, body, headers.stranger)).statusCode, `${method} ${path}`).toBe(404);
      expect((await call(method, path, body, headers.none)).statusCode, `${method} ${path}`).toBe(403);
    }
  });

  it('lets profiles:read read, and refuses it every write with 403', async () => {
    for (const [method, path, body] of routes) {
      const res = await call(method, path, body, headers.reader);
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(method === 'GET' ? 200 : 403);
    }
  });
});

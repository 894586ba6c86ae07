/**
 * Every route of the catalogue module against the guard: 401 without a session, 404 for another
 * operator's owner (venue routes), 403 for a role without `catalogue`, and for a `catalogue:read` role on
 * every write. Bodies are valid, so the answers come from the guard and not from validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  expectCreated,
  insertVenue,
  setupVenue,
  TINY_IMAGES,
  type TestApp,
} from '../../../test/helpers/app.js';

type Route = [method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: object];

let t: TestApp;
let venueRoutes: Route[];
let accountRoutes: Route[];
let headers: Record<'stranger' | 'none' | 'reader' | 'guest', Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  const { api, op, venueId } = await setupVenue(t);
  const source = await insertVenue(t, op.operatorId);
  const bundle = expectCreated(await api.post('/bundles', { name: 'B' }));
  const item = expectCreated(await api.post(`/bundles/${bundle}/items`, { name: 'I', price: 1 }));
  const promo = expectCreated(await api.post('/promo-codes', { name: 'P', code: 'P1', discount_pct: 1 }));
  const v = (path: string) => `/api/my-venues/${venueId}${path}`;
  const tag = { kind: 'guest', category: 'VIP', label: 'x' };
  venueRoutes = [
    ['GET', v('/bundles')],
    ['POST', v('/bundles'), { name: 'x' }],
    ['PUT', v(`/bundles/${bundle}`), { name: 'x' }],
    ['DELETE', v(`/bundles/${bundle}`)],
    ['POST', v(`/bundles/${bundle}/items`), { name: 'x', price: 1 }],
    ['PUT', v(`/bundles/${bundle}/items/${item}`), { name: 'x' }],
    ['DELETE', v(`/bundles/${bundle}/items/${item}`)],
    ['POST', v(`/bundles/${bundle}/items/${item}/image`), { data: TINY_IMAGES.png }],
    ['GET', v('/promo-codes')],
    ['POST', v('/promo-codes'), { name: 'x', code: 'X1', discount_pct: 1 }],
    ['PUT', v(`/promo-codes/${promo}`), { name: 'x' }],
    ['DELETE', v(`/promo-codes/${promo}`)],
    ['POST', v(`/promo-codes/${promo}/reset`)],
    ['GET', v('/tag-catalogue?kind=guest')],
    ['POST', v('/tags'), tag],
    ['DELETE', v('/tags?kind=guest&category=VIP&label=x')],
    ['POST', v('/tag-categories'), { kind: 'guest', name: 'x' }],
    ['PATCH', v('/tag-categories'), { kind: 'guest', name: 'VIP', show_on_slip: true }],
    ['POST', v('/copy-from'), { source_venue_id: source, scope: 'bundles' }],
  ];
  accountRoutes = [
    ['GET', '/api/my/tag-catalogue'],
    ['POST', '/api/my/tags', tag],
    ['DELETE', '/api/my/tags?kind=guest&category=VIP&label=x'],
    ['POST', '/api/my/tag-categories', { kind: 'guest', name: 'x' }],
    ['PATCH', '/api/my/tag-categories', { kind: 'guest', name: 'VIP', show_on_slip: true }],
  ];
  headers = {
    stranger: (await createOperator(t, 'Stranger')).headers,
    none: (await createStaff(t, op, { profiles: 'write', tables: 'write' })).headers,
    reader: (await createStaff(t, op, { catalogue: 'read' })).headers,
    guest: (await createGuest(t)).headers,
  };
});
afterAll(async () => t.close());

const call = ([method, url, body]: Route, h: Record<string, string>) =>
  t.app.inject({ method, url, headers: h, ...(body ? { payload: body } : {}) });

describe('catalogue routes and the guard', () => {
  it('answers 401 without a session, 403 to guests and to roles without catalogue, on every route', async () => {
    for (const route of [...venueRoutes, ...accountRoutes]) {
      expect((await call(route, {})).statusCode, route.join(' ')).toBe(401);
      expect((await call(route, headers.guest)).statusCode, route.join(' ')).toBe(403);
      expect((await call(route, headers.none)).statusCode, route.join(' ')).toBe(403);
    }
  });

  it('answers 404 on every venue route to another operator', async () => {
    for (const route of venueRoutes) expect((await call(route, headers.stranger)).statusCode, route.join(' ')).toBe(404);
  });

  it('lets catalogue:read read, and refuses it every write with 403', async () => {
    for (const route of [...venueRoutes, ...accountRoutes]) {
      const res = await call(route, headers.reader);
      expect(res.statusCode, `${route.join(' ')}: ${res.body}`).toBe(route[0] === 'GET' ? 200 : 403);
    }
  });
});

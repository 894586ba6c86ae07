/**
 * Who may call each team route: 401 without a session, 403 for guests and for roles lacking the
 * permission; read grants open reads only, write grants open both, parent keys cover their children.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  uniqueEmail,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { as } from './team.test-support.js';

let t: TestApp;
let op: TestOperator;
beforeAll(async () => {
  t = await createTestApp();
  op = await createOperator(t);
});
afterAll(async () => t.close());

interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  key: string;
  action: 'read' | 'write';
  payload?: () => unknown;
  /** What an allowed caller gets with these (deliberately harmless) inputs. */
  allowed: number;
}

let names = 0;
const ROUTES: RouteCase[] = [
  { method: 'GET', url: '/api/my-operator', key: 'operators.settings', action: 'read', allowed: 200 },
  {
    method: 'PUT',
    url: '/api/my-operator',
    key: 'operators.settings',
    action: 'write',
    payload: () => ({ name: 'Test Operator' }),
    allowed: 200,
  },
  { method: 'GET', url: '/api/client/dashboard', key: 'stats', action: 'read', allowed: 200 },
  { method: 'GET', url: '/api/my-operator/members', key: 'operators.members', action: 'read', allowed: 200 },
  { method: 'GET', url: '/api/my-operator/users-search?q=zz', key: 'operators.members', action: 'read', allowed: 200 },
  {
    method: 'POST',
    url: '/api/my-operator/members',
    key: 'operators.members',
    action: 'write',
    payload: () => ({ user_id: 'usr_missing' }),
    allowed: 404,
  },
  {
    method: 'PUT',
    url: '/api/my-operator/members/mem_missing',
    key: 'operators.members',
    action: 'write',
    payload: () => ({ role: 'x' }),
    allowed: 404,
  },
  { method: 'DELETE', url: '/api/my-operator/members/mem_missing', key: 'operators.members', action: 'write', allowed: 404 },
  { method: 'GET', url: '/api/my-roles', key: 'users.role', action: 'read', allowed: 200 },
  { method: 'GET', url: '/api/my-roles/role_missing', key: 'users.role', action: 'read', allowed: 404 },
  {
    method: 'POST',
    url: '/api/my-roles',
    key: 'users.role',
    action: 'write',
    payload: () => ({ name: `Access ${++names}` }),
    allowed: 200,
  },
  { method: 'PUT', url: '/api/my-roles/role_missing', key: 'users.role', action: 'write', payload: () => ({ name: 'x' }), allowed: 404 },
  { method: 'DELETE', url: '/api/my-roles/role_missing', key: 'users.role', action: 'write', allowed: 404 },
  { method: 'GET', url: '/api/my-users', key: 'users.user', action: 'read', allowed: 200 },
  {
    method: 'POST',
    url: '/api/my-users',
    key: 'users.user',
    action: 'write',
    payload: () => ({ name: 'N', email: uniqueEmail('access'), password: 'long-enough-pw', role_id: 'role_missing' }),
    allowed: 400,
  },
  { method: 'PUT', url: '/api/my-users/usr_missing', key: 'users.user', action: 'write', payload: () => ({ name: 'x' }), allowed: 404 },
  { method: 'DELETE', url: '/api/my-users/usr_missing', key: 'users.user', action: 'write', allowed: 404 },
];

function call(headers: Record<string, string>, route: RouteCase) {
  const client = as(t, headers);
  const payload = route.payload?.();
  switch (route.method) {
    case 'GET':
      return client.get(route.url);
    case 'POST':
      return client.post(route.url, payload);
    case 'PUT':
      return client.put(route.url, payload);
    case 'DELETE':
      return client.del(route.url);
  }
}

const label = (r: RouteCase) => `${r.method} ${r.url.split('?')[0]}`;

describe('team route access', () => {
  it('answers 401 without a session on every route, me/permissions included', async () => {
    for (const route of [...ROUTES, { method: 'GET', url: '/api/me/permissions', key: '', action: 'read', allowed: 200 } as RouteCase]) {
      const res = await call({}, route);
      expect(res.statusCode, label(route)).toBe(401);
    }
  });

  it('answers 403 to a guest user on every route, me/permissions included', async () => {
    const guest = await createGuest(t);
    for (const route of [...ROUTES, { method: 'GET', url: '/api/me/permissions', key: '', action: 'read', allowed: 200 } as RouteCase]) {
      const res = await call(guest.headers, route);
      expect(res.statusCode, label(route)).toBe(403);
    }
  });

  it('lets the Owner through every route', async () => {
    for (const route of ROUTES) {
      const res = await call(op.headers, route);
      expect(res.statusCode, label(route)).toBe(route.allowed);
    }
  });

  it('answers 403 to a role without the permission (an unrelated grant does not help)', async () => {
    const staff = await createStaff(t, op, { tables: 'write', venues: 'write' });
    for (const route of ROUTES) {
      const res = await call(staff.headers, route);
      expect(res.statusCode, label(route)).toBe(403);
      expect(res.json().error).toContain(`${route.key}:${route.action}`);
    }
    expect((await as(t, staff.headers).get('/api/me/permissions')).statusCode).toBe(200);
  });

  it('opens reads with a read grant, and reads and writes with a write grant', async () => {
    for (const key of ['operators.settings', 'operators.members', 'users.role', 'users.user', 'stats']) {
      const reader = await createStaff(t, op, { [key]: 'read' });
      const writer = await createStaff(t, op, { [key]: 'write' });
      for (const route of ROUTES.filter((r) => r.key === key)) {
        const asReader = await call(reader.headers, route);
        expect(asReader.statusCode, `${label(route)} as ${key}:read`).toBe(route.action === 'read' ? route.allowed : 403);
        const asWriter = await call(writer.headers, route);
        expect(asWriter.statusCode, `${label(route)} as ${key}:write`).toBe(route.allowed);
      }
    }
  });

  it('lets a parent grant cover its children', async () => {
    const usersReader = await createStaff(t, op, { users: 'read' });
    const operatorsWriter = await createStaff(t, op, { operators: 'write' });
    for (const route of ROUTES) {
      const res = await call(usersReader.headers, route);
      const expected = route.key.startsWith('users.') && route.action === 'read' ? route.allowed : 403;
      expect(res.statusCode, `${label(route)} as users:read`).toBe(expected);
    }
    for (const route of ROUTES) {
      const res = await call(operatorsWriter.headers, route);
      expect(res.statusCode, `${label(route)} as operators:write`).toBe(route.key.startsWith('operators.') ? route.allowed : 403);
    }
  });
});

describe('OpenAPI', () => {
  it('documents every team route with a tag, the bearer scheme and its error statuses', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    for (const route of [...ROUTES, { method: 'GET', url: '/api/me/permissions' } as RouteCase]) {
      const path = route.url.split('?')[0]!.replace(/\/(mem|role|usr)_missing$/, '/{id}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      expect(operation, label(route)).toBeDefined();
      expect(operation.tags.length, label(route)).toBeGreaterThan(0);
      expect(operation.security).toEqual([{ bearer: [] }]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
  });
});

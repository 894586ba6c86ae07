import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp, type TestOperator } from '../../../test/helpers/app.js';
import { PERMISSION_KEYS, PERMISSION_TREE } from '../../platform/permissions.js';
import { as } from './team.test-support.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
beforeAll(async () => {
  t = await createTestApp();
  [op, other] = await Promise.all([createOperator(t, 'Harbour Group'), createOperator(t, 'Other Group')]);
});
afterAll(async () => t.close());

describe('GET/PUT /api/my-operator', () => {
  it('reads the caller’s operator record', async () => {
    const res = await as(t, op.headers).get('/api/my-operator');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toEqual({
      id: op.operatorId,
      name: 'Harbour Group',
      company_name: null,
      company_reg: null,
      vat_number: null,
      status: 'active',
      payment_connect_status: 'not_started',
    });
  });

  it('updates the record, keeps omitted fields, clears with null or an empty string', async () => {
    const api = as(t, op.headers);
    const full = await api.put('/api/my-operator', {
      name: ' Harbour Ltd ',
      company_name: 'Harbour Hospitality Ltd',
      company_reg: '0123456',
      vat_number: 'GB123',
    });
    expect(full.statusCode).toBe(200);
    expect(full.json()).toEqual({ success: true });
    expect((await api.get('/api/my-operator')).json()).toMatchObject({
      name: 'Harbour Ltd',
      company_name: 'Harbour Hospitality Ltd',
      company_reg: '0123456',
      vat_number: 'GB123',
    });

    await api.put('/api/my-operator', { name: 'Harbour Ltd', vat_number: 'GB999' });
    expect((await api.get('/api/my-operator')).json()).toMatchObject({
      company_name: 'Harbour Hospitality Ltd',
      company_reg: '0123456',
      vat_number: 'GB999',
    });

    await api.put('/api/my-operator', { name: 'Harbour Ltd', company_name: null, company_reg: '', vat_number: '  ' });
    expect((await api.get('/api/my-operator')).json()).toMatchObject({ company_name: null, company_reg: null, vat_number: null });

    // The other account is untouched.
    expect((await as(t, other.headers).get('/api/my-operator')).json()).toMatchObject({ id: other.operatorId, name: 'Other Group' });
  });

  it('refuses invalid bodies and changes nothing', async () => {
    const api = as(t, op.headers);
    await api.put('/api/my-operator', { name: 'Stable Name', company_name: 'Stable Co' });
    const before = (await api.get('/api/my-operator')).json();
    const cases: [unknown, RegExp][] = [
      [{}, /name/],
      [{ company_name: 'No Name Ltd' }, /name/],
      [{ name: '' }, /name/],
      [{ name: '   ' }, /name must not be blank/],
      [{ name: 'x'.repeat(201) }, /name/],
      [{ name: 'Ok', company_name: 'x'.repeat(201) }, /company_name/],
      [{ name: 'Ok', vat_number: 42 }, /vat_number/],
      [{ name: 42 }, /name/],
    ];
    for (const [body, message] of cases) {
      const res = await api.put('/api/my-operator', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await api.get('/api/my-operator')).json()).toEqual(before);
  });
});

describe('GET /api/me/permissions', () => {
  it('gives the Owner every permission, the full tree and no venue scope', async () => {
    const res = await as(t, op.headers).get('/api/me/permissions');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ role: 'Owner', role_id: op.roleId, is_owner: true, portal: 'client', venue_ids: [] });
    expect(Object.keys(body.permissions).sort()).toEqual([...PERMISSION_KEYS].sort());
    for (const key of PERMISSION_KEYS) expect(body.permissions[key], key).toEqual({ read: true, write: true });
    // Exactly the catalogue: a level the response schema did not declare would be dropped here.
    expect(body.tree).toEqual(JSON.parse(JSON.stringify(PERMISSION_TREE)));
  });

  it('resolves a custom role: parent grants, write implies read, venue scope', async () => {
    const venueId = await insertVenue(t, op.operatorId);
    const staff = await createStaff(t, op, { users: 'read', tables: 'write' }, [venueId]);
    const body = (await as(t, staff.headers).get('/api/me/permissions')).json();
    expect(body).toMatchObject({ role_id: staff.roleId, is_owner: false, portal: 'client', venue_ids: [venueId] });
    expect(body.role).toMatch(/^Staff /);
    expect(body.permissions['users']).toEqual({ read: true, write: false });
    expect(body.permissions['users.role']).toEqual({ read: true, write: false });
    expect(body.permissions['users.user']).toEqual({ read: true, write: false });
    expect(body.permissions['tables']).toEqual({ read: true, write: true });
    expect(body.permissions['venues.settings']).toEqual({ read: false, write: false });
    expect(body.permissions['operators.settings']).toEqual({ read: false, write: false });
  });

  it('answers 304 to a matching If-None-Match, and a new ETag once the grants change', async () => {
    const staff = await createStaff(t, op, { guests: 'read' });
    const api = as(t, staff.headers);
    const first = await api.get('/api/me/permissions');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();

    const again = await api.get('/api/me/permissions', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const stale = await api.get('/api/me/permissions', { 'if-none-match': 'W/"something-else"' });
    expect(stale.statusCode).toBe(200);

    const grid = await as(t, op.headers).put(`/api/my-roles/${staff.roleId}`, {
      name: 'Guest desk',
      permissions: [{ permission_key: 'guests', can_read: true, can_write: true }],
    });
    expect(grid.statusCode).toBe(200);
    const changed = await api.get('/api/me/permissions', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json()).toMatchObject({ role: 'Guest desk', permissions: { guests: { read: true, write: true } } });
  });
});

// Copy-from’s registry and the route’s rules: body validation, source and target tenancy, and the
// permission each scope needs.
import { describe, expect, it } from 'vitest';
import { createOperator, createStaff, insertVenue, venueApi } from '../../../test/helpers/app.js';
import { readRow } from '../../../test/helpers/rows.js';
import { isPermissionKey } from '../../platform/permissions.js';
import { copy, created, data, dst, insertNamed, op, source, t, target, useTwoVenues } from './copy-from.test-support.js';

useTwoVenues();

const MY_SCOPES = [
  'bundles',
  'payment-policies',
  'access-profiles',
  'admission-rules',
  'promo-codes',
  'client-tags',
  'reservation-tags',
  'queue',
];

describe('copy-from registry', () => {
  it('registers every scope the spec lists, this module’s and the other modules’', () => {
    const names = t.ctx.copyScopes.names();
    expect(names).toEqual(expect.arrayContaining(MY_SCOPES));
    expect([...names].sort()).toEqual([...MY_SCOPES, 'shifts', 'access-rules', 'availability', 'tables'].sort());
  });

  it('names the permission that guards each scope: the permission of the module that owns what it overwrites', () => {
    const permissions = Object.fromEntries(t.ctx.copyScopes.names().map((name) => [name, t.ctx.copyScopes.get(name)!.permission]));
    expect(permissions).toEqual({
      bundles: 'catalogue',
      'promo-codes': 'catalogue',
      'client-tags': 'catalogue',
      'reservation-tags': 'catalogue',
      'payment-policies': 'profiles',
      'access-profiles': 'profiles',
      'admission-rules': 'profiles',
      shifts: 'availability',
      'access-rules': 'availability',
      availability: 'availability',
      tables: 'tables',
      queue: 'venues.settings',
    });
    for (const permission of Object.values(permissions)) expect(isPermissionKey(permission)).toBe(true);
  });
});

describe('copy-from refusals', () => {
  it('validates the body: unknown scope, same venue, missing fields → 400', async () => {
    const unknown = await copy('everything');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/scope must be one of: .*bundles/);
    const same = await copy('bundles', target);
    expect(same.statusCode).toBe(400);
    expect(same.json().error).toMatch(/source_venue_id/);
    expect((await dst.post('/copy-from', { scope: 'bundles' })).statusCode).toBe(400);
    expect((await dst.post('/copy-from', { source_venue_id: source })).statusCode).toBe(400);
    expect((await dst.post('/copy-from', { source_venue_id: source, scope: 5 })).statusCode).toBe(400);
  });

  it('refuses a source of another operator with 404 and leaves the target unchanged', async () => {
    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    await created(venueApi(t, stranger.headers, theirVenue).post('/bundles', { name: 'Theirs' }));
    const mine = await created(dst.post('/bundles', { name: 'Mine' }));
    const res = await copy('bundles', theirVenue);
    expect(res.statusCode).toBe(404);
    expect((await data(dst, '/bundles')).map((b) => b.id)).toEqual([mine]);
    // Nor may they copy from mine into theirs.
    const reverse = await venueApi(t, stranger.headers, theirVenue).post('/copy-from', { source_venue_id: target, scope: 'bundles' });
    expect(reverse.statusCode).toBe(404);
    expect((await data(venueApi(t, stranger.headers, theirVenue), '/bundles')).map((b) => b.name)).toEqual(['Theirs']);
    expect((await copy('bundles', 'ven_does_not_exist')).statusCode).toBe(404);
  });

  it('refuses a source outside the caller’s role scope (404), a target of another operator (404), and checks permissions', async () => {
    const scoped = await createStaff(t, op, { catalogue: 'write' }, [target]);
    const res = await venueApi(t, scoped.headers, target).post('/copy-from', { source_venue_id: source, scope: 'bundles' });
    expect(res.statusCode).toBe(404);
    const both = await createStaff(t, op, { catalogue: 'write' }, [target, source]);
    expect((await venueApi(t, both.headers, target).post('/copy-from', { source_venue_id: source, scope: 'bundles' })).statusCode).toBe(
      200,
    );

    const reader = await createStaff(t, op, { catalogue: 'read' });
    expect((await venueApi(t, reader.headers, target).post('/copy-from', { source_venue_id: source, scope: 'bundles' })).statusCode).toBe(
      403,
    );
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/my-venues/${target}/copy-from`,
          payload: { source_venue_id: source, scope: 'bundles' },
        })
      ).statusCode,
    ).toBe(401);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    expect((await venueApi(t, op.headers, theirVenue).post('/copy-from', { source_venue_id: source, scope: 'bundles' })).statusCode).toBe(
      404,
    );
  });
});

describe('copy-from: the scope’s own permission', () => {
  it.each([
    ['tables', 'tables'],
    ['shifts', 'availability'],
    ['access-rules', 'availability'],
    ['availability', 'availability'],
    ['payment-policies', 'profiles'],
    ['access-profiles', 'profiles'],
    ['admission-rules', 'profiles'],
    ['queue', 'venues.settings'],
  ])('%s needs %s:write besides catalogue:write (403 without it, nothing changed)', async (scope, permission) => {
    await insertNamed('venue_tables', source, { table_number: 'S1' });
    const kept = await insertNamed('venue_tables', target, { table_number: 'T1' });
    const keptPolicy = await created(dst.post('/payment-policies', { name: 'Kept' }));
    const catalogueOnly = await createStaff(t, op, { catalogue: 'write' });
    const res = await venueApi(t, catalogueOnly.headers, target).post('/copy-from', { source_venue_id: source, scope });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain(`${permission}:write`);
    expect(await readRow(t, 'venue_tables', kept)).toMatchObject({ venue_id: target });
    expect((await data(dst, '/payment-policies')).map((p) => p.id)).toEqual([keptPolicy]);

    const readOnly = await createStaff(t, op, { catalogue: 'write', [permission]: 'read' });
    expect((await venueApi(t, readOnly.headers, target).post('/copy-from', { source_venue_id: source, scope })).statusCode).toBe(403);
    const both = await createStaff(t, op, { catalogue: 'write', [permission]: 'write' });
    const ok = await venueApi(t, both.headers, target).post('/copy-from', { source_venue_id: source, scope });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it.each(['bundles', 'promo-codes', 'client-tags', 'reservation-tags'])('%s needs catalogue:write only', async (scope) => {
    const catalogueOnly = await createStaff(t, op, { catalogue: 'write' });
    expect((await venueApi(t, catalogueOnly.headers, target).post('/copy-from', { source_venue_id: source, scope })).statusCode).toBe(200);
  });

  it('a parent grant covers a child scope permission (venues covers venues.settings)', async () => {
    const parent = await createStaff(t, op, { catalogue: 'write', venues: 'write' });
    expect((await venueApi(t, parent.headers, target).post('/copy-from', { source_venue_id: source, scope: 'queue' })).statusCode).toBe(
      200,
    );
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, insertVenueRow, venueApi, type TestApp, type TestOperator, type VenueApi } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';
import { insertAccessRule, insertShift, insertTicketType, readRow } from '../../../test/helpers/rows.js';
import { CopyScopes, type CopyScope } from '../../platform/copy-scopes.js';
import { isPermissionKey } from '../../platform/permissions.js';
import { redeemPromoCode } from '../catalogue/index.js';
import { createCopyFromService } from './copy-from.service.js';

let t: TestApp;
let op: TestOperator;
let source: string;
let target: string;
let src: VenueApi;
let dst: VenueApi;

beforeAll(async () => {
  t = await createTestApp();
  op = await createOperator(t);
});
afterAll(async () => t.close());

// Each test copies between two fresh venues of the same operator.
beforeEach(async () => {
  source = await insertVenue(t, op.operatorId, { name: 'Source' });
  target = await insertVenue(t, op.operatorId, { name: 'Target' });
  src = venueApi(t, op.headers, source);
  dst = venueApi(t, op.headers, target);
});

const MY_SCOPES = ['bundles', 'payment-policies', 'access-profiles', 'admission-rules', 'promo-codes', 'client-tags', 'reservation-tags', 'queue'];

async function created(res: Promise<{ statusCode: number; body: string; json(): any }>): Promise<string> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json().id;
}

async function copy(scope: string, from = source, a = dst) {
  return a.post('/copy-from', { source_venue_id: from, scope });
}

async function copied(scope: string): Promise<number> {
  const res = await copy(scope);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ success: true, copied: expect.any(Number) });
  return res.json().copied;
}

const data = async (a: VenueApi, path: string) => (await a.get(path)).json().data as Record<string, any>[];
const byName = <T extends { name?: unknown }>(rows: T[], name: string) => rows.find((row) => row.name === name);
const insertNamed = (table: string, venueId: string, fields: Record<string, unknown>) => insertVenueRow(t, table, venueId, fields, 'x');

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

describe('copy-from: another module’s scopes through the route', () => {
  it('shifts: copied with their payment policy matched by name in the target', async () => {
    const srcPolicy = await created(src.post('/payment-policies', { name: 'Deposit' }));
    const dstPolicy = await created(dst.post('/payment-policies', { name: 'Deposit' }));
    await insertShift(t, source, { name: 'Friday night', payment_policy_id: srcPolicy });
    await insertShift(t, source, { name: 'Saturday night' });
    const old = await insertShift(t, target, { name: 'Old shift' });

    expect(await copied('shifts')).toBe(2);
    const shifts = await t.db.kysely.selectFrom('shifts').select(['id', 'name', 'payment_policy_id']).where('venue_id', '=', target).execute();
    expect(shifts.map((s) => s.name).sort()).toEqual(['Friday night', 'Saturday night']);
    expect(shifts.find((s) => s.name === 'Friday night')?.payment_policy_id).toBe(dstPolicy);
    expect(shifts.map((s) => s.id)).not.toContain(old);
  });

  it('passes a scope’s refusal through as 409, with nothing changed', async () => {
    const table = await insertNamed('venue_tables', target, { table_number: 'T1' });
    const at = t.clock.now();
    const booking = newId('bkg');
    await t.db.kysely
      .insertInto('bookings')
      .values({ id: booking, operator_id: op.operatorId, venue_id: target, kind: 'table', status: 'confirmed', booking_date: '2026-06-20', created_at: at.toISOString(), updated_at: at.toISOString() })
      .execute();
    await t.db.kysely
      .insertInto('booking_tables')
      .values({ booking_id: booking, table_id: table, venue_id: target, starts_at: '2026-06-20T18:00:00.000Z', ends_at: '2026-06-20T20:00:00.000Z' })
      .execute();
    await insertNamed('venue_tables', source, { table_number: 'S1' });

    const res = await copy('tables');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: expect.any(String) });
    expect(await readRow(t, 'venue_tables', table)).toMatchObject({ table_number: 'T1' });
  });
});

describe('copy-from: bundles', () => {
  it('overwrites the target’s bundles with copies (items included) and re-points the target’s references by name', async () => {
    const champagne = await created(src.post('/bundles', { name: 'Champagne', applicable_profiles: ['tables'] }));
    await created(src.post(`/bundles/${champagne}/items`, { name: 'Bottle', price: 9000, max_qty: 2, image_url: 'http://maitred.test/uploads/a.png' }));
    await created(src.post(`/bundles/${champagne}/items`, { name: 'Magnum', price: 16000 }));
    const snacks = await created(src.post('/bundles', { name: 'Snacks' }));
    await created(src.post(`/bundles/${snacks}/items`, { name: 'Olives', price: 450 }));

    const oldChampagne = await created(dst.post('/bundles', { name: 'Champagne' }));
    const oldOnly = await created(dst.post('/bundles', { name: 'Old only' }));
    await created(dst.post(`/bundles/${oldOnly}/items`, { name: 'Old item', price: 1 }));
    const rule = await insertAccessRule(t, target, { bundle_ids: JSON.stringify([oldChampagne, oldOnly]) });
    const profile = await created(dst.post('/table-profiles', { name: 'Dinner', bundle_ids: [oldOnly, oldChampagne] }));
    const sourceRule = await insertAccessRule(t, source, { bundle_ids: JSON.stringify([champagne]) });

    expect(await copied('bundles')).toBe(5);

    const bundles = await data(dst, '/bundles');
    expect(bundles.map((b) => b.name).sort()).toEqual(['Champagne', 'Snacks']);
    const newChampagne = byName(bundles, 'Champagne')!;
    expect(newChampagne.id).not.toBe(champagne);
    expect(newChampagne.id).not.toBe(oldChampagne);
    expect(newChampagne.applicable_profiles).toEqual(['tables']);
    expect(newChampagne.items.map((i: any) => [i.name, i.price, i.max_qty, i.image_url, i.bundle_id]).sort()).toEqual([
      ['Bottle', 9000, 2, 'http://maitred.test/uploads/a.png', newChampagne.id],
      ['Magnum', 16000, null, null, newChampagne.id],
    ]);
    expect(byName(bundles, 'Snacks')!.items.map((i: any) => i.name)).toEqual(['Olives']);

    expect(JSON.parse((await readRow(t, 'access_rules', rule))!.bundle_ids)).toEqual([newChampagne.id]);
    expect((await data(dst, '/table-profiles')).find((p) => p.id === profile)?.bundle_ids).toEqual([newChampagne.id]);
    expect((await t.db.kysely.selectFrom('bundle_items').select('id').where('venue_id', '=', target).execute()).length).toBe(3);

    // The source is untouched.
    expect((await data(src, '/bundles')).map((b) => b.id).sort()).toEqual([champagne, snacks].sort());
    expect(JSON.parse((await readRow(t, 'access_rules', sourceRule))!.bundle_ids)).toEqual([champagne]);
  });

  it('copying an empty scope empties the target', async () => {
    const old = await created(dst.post('/bundles', { name: 'Old' }));
    const rule = await insertAccessRule(t, target, { bundle_ids: JSON.stringify([old]) });
    expect(await copied('bundles')).toBe(0);
    expect(await data(dst, '/bundles')).toEqual([]);
    expect(JSON.parse((await readRow(t, 'access_rules', rule))!.bundle_ids)).toEqual([]);
  });
});

describe('copy-from: payment-policies', () => {
  it('overwrites policies and re-points access rules, shifts and profiles by name', async () => {
    await created(src.post('/payment-policies', { name: 'Standard', deposit_type: 'hold', refund_type: 'partial', refund_percent: 40, cancel_type: 'cutoff', cancel_cutoff_value: 3, cancel_cutoff_unit: 'days' }));
    await created(src.post('/payment-policies', { name: 'Events' }));
    const oldStandard = await created(dst.post('/payment-policies', { name: 'Standard' }));
    const oldGone = await created(dst.post('/payment-policies', { name: 'Gone' }));
    const rule = await insertAccessRule(t, target, { payment_policy_id: oldStandard });
    const goneRule = await insertAccessRule(t, target, { payment_policy_id: oldGone });
    const shift = await insertShift(t, target, { payment_policy_id: oldStandard });
    const profile = await created(dst.post('/table-profiles', { name: 'T', payment_policy_id: oldStandard }));
    const goneProfile = await created(dst.post('/event-profiles', { name: 'E', payment_policy_id: oldGone }));

    expect(await copied('payment-policies')).toBe(2);

    const policies = await data(dst, '/payment-policies');
    expect(policies.map((p) => p.name).sort()).toEqual(['Events', 'Standard']);
    const standard = byName(policies, 'Standard')!;
    expect(standard).toMatchObject({ deposit_type: 'hold', refund_type: 'partial', refund_percent: 40, cancel_type: 'cutoff', cancel_cutoff_value: 3, cancel_cutoff_unit: 'days' });
    expect(await readRow(t, 'access_rules', rule)).toMatchObject({ payment_policy_id: standard.id });
    expect(await readRow(t, 'access_rules', goneRule)).toMatchObject({ payment_policy_id: null });
    expect(await readRow(t, 'shifts', shift)).toMatchObject({ payment_policy_id: standard.id });
    expect((await data(dst, '/table-profiles')).find((p) => p.id === profile)?.payment_policy_id).toBe(standard.id);
    expect((await data(dst, '/event-profiles')).find((p) => p.id === goneProfile)?.payment_policy_id).toBeNull();
  });
});

describe('copy-from: access-profiles', () => {
  it('copies all four families, translating their references to the target’s things of the same name', async () => {
    // Source things the profiles point at.
    const srcGroup = await created(src.post('/admission-groups', { name: 'Door' }));
    const srcPolicy = await created(src.post('/payment-policies', { name: 'Deposit' }));
    const srcDrinks = await created(src.post('/bundles', { name: 'Drinks' }));
    const srcOnly = await created(src.post('/bundles', { name: 'Source only' }));
    const srcPromo = await created(src.post('/promo-codes', { name: 'VIP', code: 'VIP10', discount_pct: 10 }));
    const srcPricelist = await insertNamed('pricelists', source, { name: 'Peak' });
    const srcArea = await insertNamed('seating_areas', source, { name: 'Terrace' });
    const srcTable = await insertNamed('venue_tables', source, { table_number: 'T1' });
    // The target's things of the same names (no table T1 there).
    const dstGroup = await created(dst.post('/admission-groups', { name: 'Door' }));
    const dstPolicy = await created(dst.post('/payment-policies', { name: 'Deposit' }));
    const dstDrinks = await created(dst.post('/bundles', { name: 'Drinks' }));
    const dstPromo = await created(dst.post('/promo-codes', { name: 'VIP too', code: 'vip10', discount_pct: 15 }));
    const dstPricelist = await insertNamed('pricelists', target, { name: 'Peak' });
    const dstArea = await insertNamed('seating_areas', target, { name: 'Terrace' });

    await created(src.post('/list-profiles', { name: 'Friday', admission_rule_group_id: srcGroup, party_size_enabled: true, party_size_min: 1, party_size_max: 8 }));
    await created(
      src.post('/table-profiles', {
        name: 'Dinner',
        payment_policy_id: srcPolicy,
        bundle_ids: [srcDrinks, srcOnly],
        pricelist_id: srcPricelist,
        seating_area_ids: [srcArea],
        guest_pick_area_ids: [srcArea],
        table_ids: [srcTable],
        duration_enabled: true,
        duration_minutes: 150,
      }),
    );
    await created(src.post('/event-profiles', { name: 'Gig', promo_code_ids: [srcPromo], payment_policy_id: srcPolicy, listed: false }));
    await created(src.post('/ticket-profiles', { name: 'GA', show_capacity: true }));

    // The target's old profiles, referred to by its access rules.
    const oldFriday = await created(dst.post('/list-profiles', { name: 'Friday' }));
    const oldGone = await created(dst.post('/table-profiles', { name: 'Gone' }));
    const rule = await insertAccessRule(t, target, { list_profile_id: oldFriday, table_profile_id: oldGone });

    expect(await copied('access-profiles')).toBe(4);

    const list = await data(dst, '/list-profiles');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'Friday', admission_rule_group_id: dstGroup, party_size_enabled: true, party_size_max: 8 });
    expect(list[0].id).not.toBe(oldFriday);
    const tables = await data(dst, '/table-profiles');
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({
      name: 'Dinner',
      payment_policy_id: dstPolicy,
      bundle_ids: [dstDrinks],
      pricelist_id: dstPricelist,
      seating_area_ids: [dstArea],
      guest_pick_area_ids: [dstArea],
      table_ids: [],
      duration_minutes: 150,
    });
    expect(await data(dst, '/event-profiles')).toEqual([expect.objectContaining({ name: 'Gig', promo_code_ids: [dstPromo], payment_policy_id: dstPolicy, listed: false })]);
    expect(await data(dst, '/ticket-profiles')).toEqual([expect.objectContaining({ name: 'GA', show_capacity: true })]);

    expect(await readRow(t, 'access_rules', rule)).toMatchObject({ list_profile_id: list[0].id, table_profile_id: null });
    // The source keeps its own profiles and references.
    expect((await data(src, '/table-profiles'))[0]).toMatchObject({ payment_policy_id: srcPolicy, bundle_ids: [srcDrinks, srcOnly] });
  });

  it('clears references the target has no counterpart for', async () => {
    const srcGroup = await created(src.post('/admission-groups', { name: 'Only at the source' }));
    const srcPolicy = await created(src.post('/payment-policies', { name: 'Only at the source' }));
    const srcPricelist = await insertNamed('pricelists', source, { name: 'Only at the source' });
    await created(src.post('/list-profiles', { name: 'L', admission_rule_group_id: srcGroup }));
    await created(src.post('/table-profiles', { name: 'T', payment_policy_id: srcPolicy, pricelist_id: srcPricelist }));
    expect(await copied('access-profiles')).toBe(2);
    expect((await data(dst, '/list-profiles'))[0]).toMatchObject({ admission_rule_group_id: null });
    expect((await data(dst, '/table-profiles'))[0]).toMatchObject({ payment_policy_id: null, pricelist_id: null });
  });
});

describe('copy-from: admission-rules', () => {
  it('copies groups with their rules and re-points the target’s list profiles by group name', async () => {
    const door = await created(src.post('/admission-groups', { name: 'Door', sort_order: 2 }));
    await created(src.post(`/admission-groups/${door}/rules`, { name: 'VIPs', cond_tags_enabled: true, cond_tags: ['VIP'], act_autoapprove_enabled: true }));
    await created(src.post(`/admission-groups/${door}/rules`, { name: 'Regulars', cond_bookings_enabled: true, cond_bookings_min: 3, act_discount_enabled: true, act_discount_pct: 10 }));
    const late = await created(src.post('/admission-groups', { name: 'Late', sort_order: 1 }));
    await created(src.post(`/admission-groups/${late}/rules`, { name: 'Late rule', act_maxplus_enabled: true, act_maxplus: 1 }));

    const oldDoor = await created(dst.post('/admission-groups', { name: 'Door' }));
    await created(dst.post(`/admission-groups/${oldDoor}/rules`, { name: 'Old rule' }));
    const oldLegacy = await created(dst.post('/admission-groups', { name: 'Legacy' }));
    const profile = await created(dst.post('/list-profiles', { name: 'Uses door', admission_rule_group_id: oldDoor }));
    const legacyProfile = await created(dst.post('/list-profiles', { name: 'Uses legacy', admission_rule_group_id: oldLegacy }));

    expect(await copied('admission-rules')).toBe(5);

    const groups = await data(dst, '/admission-groups');
    expect(groups.map((g) => [g.name, g.sort_order])).toEqual([
      ['Late', 1],
      ['Door', 2],
    ]);
    const newDoor = byName(groups, 'Door')!;
    expect(newDoor.rules.map((r: any) => r.name).sort()).toEqual(['Regulars', 'VIPs']);
    expect(newDoor.rules.find((r: any) => r.name === 'VIPs')).toMatchObject({ group_id: newDoor.id, cond_tags: ['VIP'], act_autoapprove_enabled: true });
    expect(byName(groups, 'Late')!.rules).toEqual([expect.objectContaining({ name: 'Late rule', act_maxplus: 1 })]);
    expect(await t.db.kysely.selectFrom('admission_rules').select('id').where('group_id', '=', oldDoor).execute()).toEqual([]);

    const profiles = await data(dst, '/list-profiles');
    expect(profiles.find((p) => p.id === profile)?.admission_rule_group_id).toBe(newDoor.id);
    expect(profiles.find((p) => p.id === legacyProfile)?.admission_rule_group_id).toBeNull();
  });

  it('re-points the target’s ticket types (events module) by group name, leaving the source’s alone', async () => {
    const srcDoor = await created(src.post('/admission-groups', { name: 'Door' }));
    const oldDoor = await created(dst.post('/admission-groups', { name: 'Door' }));
    const oldGone = await created(dst.post('/admission-groups', { name: 'Gone' }));
    const door = await insertTicketType(t, { admission_rule_group_id: oldDoor });
    const gone = await insertTicketType(t, { admission_rule_group_id: oldGone });
    const sourceTicket = await insertTicketType(t, { admission_rule_group_id: srcDoor });

    expect(await copied('admission-rules')).toBe(1);
    const newDoor = byName(await data(dst, '/admission-groups'), 'Door')!;
    expect(await readRow(t, 'ticket_types', door)).toMatchObject({ admission_rule_group_id: newDoor.id });
    expect(await readRow(t, 'ticket_types', gone)).toMatchObject({ admission_rule_group_id: null });
    expect(await readRow(t, 'ticket_types', sourceTicket)).toMatchObject({ admission_rule_group_id: srcDoor });
  });
});

describe('copy-from: promo-codes', () => {
  it('copies codes with their counters reset and re-points event profiles by code', async () => {
    const vip = await created(src.post('/promo-codes', { name: 'VIP', code: 'VIP10', discount_pct: 10, max_uses: 50, expires_at: '2026-12-31T23:00:00Z' }));
    await created(src.post('/promo-codes', { name: 'Summer', code: 'SUMMER', discount_pct: 20 }));
    await redeemPromoCode(t.db, source, 'VIP10', t.clock.now());
    await redeemPromoCode(t.db, source, 'VIP10', t.clock.now());
    const oldVip = await created(dst.post('/promo-codes', { name: 'Old VIP', code: 'VIP10', discount_pct: 5 }));
    const oldOnly = await created(dst.post('/promo-codes', { name: 'Old', code: 'OLD', discount_pct: 5 }));
    const profile = await created(dst.post('/event-profiles', { name: 'Gig', promo_code_ids: [oldVip, oldOnly] }));

    expect(await copied('promo-codes')).toBe(2);

    const codes = await data(dst, '/promo-codes');
    expect(codes.map((c) => c.code).sort()).toEqual(['SUMMER', 'VIP10']);
    const newVip = codes.find((c) => c.code === 'VIP10')!;
    expect(newVip).toMatchObject({ name: 'VIP', discount_pct: 10, max_uses: 50, uses: 0, expires_at: '2026-12-31T23:00:00.000Z' });
    expect((await data(src, '/promo-codes')).find((c) => c.id === vip)?.uses).toBe(2);
    expect((await data(dst, '/event-profiles')).find((p) => p.id === profile)?.promo_code_ids).toEqual([newVip.id]);
  });
});

describe('copy-from: tags', () => {
  it('client-tags copies the guest kind’s custom categories, tags and flags, and leaves reservation tags alone', async () => {
    await src.post('/tag-categories', { kind: 'guest', name: 'Loyalty', show_on_slip: true });
    await src.post('/tags', { kind: 'guest', category: 'Loyalty', label: 'Gold' });
    await src.post('/tags', { kind: 'guest', category: 'VIP', label: 'Footballer' });
    await src.patch('/tag-categories', { kind: 'guest', name: 'Dietary', show_on_slip: false });
    await src.post('/tags', { kind: 'reservation', category: 'Occasion', label: 'Source only' });
    await dst.post('/tags', { kind: 'guest', category: 'Behaviour', label: 'Old custom' });
    await dst.post('/tags', { kind: 'reservation', category: 'Occasion', label: 'Target keeps' });

    expect(await copied('client-tags')).toBe(4); // Loyalty, the Dietary flags, Gold, Footballer

    const guest = (await dst.get('/tag-catalogue?kind=guest')).json().data as any[];
    expect(byName(guest, 'Loyalty')).toMatchObject({ is_default: false, scope: 'venue', show_on_slip: true, tags: [{ label: 'Gold', is_default: false, scope: 'venue' }] });
    expect(byName(guest, 'VIP')!.tags).toContainEqual({ label: 'Footballer', is_default: false, scope: 'venue' });
    expect(byName(guest, 'Dietary')).toMatchObject({ is_default: true, show_on_slip: false });
    expect(byName(guest, 'Behaviour')!.tags.map((tag: any) => tag.label)).not.toContain('Old custom');
    const reservation = (await dst.get('/tag-catalogue?kind=reservation')).json().data as any[];
    const occasion = byName(reservation, 'Occasion')!.tags.map((tag: any) => tag.label);
    expect(occasion).toContain('Target keeps');
    expect(occasion).not.toContain('Source only');
  });

  it('reservation-tags copies the reservation kind only', async () => {
    await src.post('/tag-categories', { kind: 'reservation', name: 'Packages' });
    await src.post('/tags', { kind: 'reservation', category: 'Packages', label: 'Brunch' });
    await src.post('/tags', { kind: 'guest', category: 'VIP', label: 'Source guest tag' });
    await dst.post('/tags', { kind: 'reservation', category: 'Seating', label: 'Old seat' });

    expect(await copied('reservation-tags')).toBe(2);
    const reservation = (await dst.get('/tag-catalogue?kind=reservation')).json().data as any[];
    expect(byName(reservation, 'Packages')!.tags).toEqual([{ label: 'Brunch', is_default: false, scope: 'venue' }]);
    expect(byName(reservation, 'Seating')!.tags.map((tag: any) => tag.label)).not.toContain('Old seat');
    const guest = (await dst.get('/tag-catalogue?kind=guest')).json().data as any[];
    expect(byName(guest, 'VIP')!.tags.map((tag: any) => tag.label)).not.toContain('Source guest tag');
  });
});

describe('copy-from: queue', () => {
  it('copies the door and queue settings onto the target venue', async () => {
    const settings = { queue_skip_price: 12.5, surge_threshold: 80, surge_price: 20, backdoor_capacity: 40, last_entry_time: '02:30', max_plus_ones: 6 };
    await t.db.kysely.updateTable('venues').set(settings).where('id', '=', source).execute();
    expect(await copied('queue')).toBe(1);
    const row = await t.db.kysely.selectFrom('venues').selectAll().where('id', '=', target).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ...settings, name: 'Target' });
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
    expect((await venueApi(t, both.headers, target).post('/copy-from', { source_venue_id: source, scope: 'bundles' })).statusCode).toBe(200);

    const reader = await createStaff(t, op, { catalogue: 'read' });
    expect((await venueApi(t, reader.headers, target).post('/copy-from', { source_venue_id: source, scope: 'bundles' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/my-venues/${target}/copy-from`, payload: { source_venue_id: source, scope: 'bundles' } })).statusCode).toBe(401);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    expect((await venueApi(t, op.headers, theirVenue).post('/copy-from', { source_venue_id: source, scope: 'bundles' })).statusCode).toBe(404);
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
    expect((await venueApi(t, parent.headers, target).post('/copy-from', { source_venue_id: source, scope: 'queue' })).statusCode).toBe(200);
  });
});

describe('copy-from atomicity', () => {
  /** A scope that does the real work of other scopes, then fails: everything it did must be undone. */
  const failingAfter = (names: string[], fail: CopyScope['copy']): CopyScope => ({
    name: 'failing',
    permission: 'catalogue',
    async copy(request) {
      for (const name of names) await t.ctx.copyScopes.get(name)!.copy(request);
      return fail(request);
    },
  });

  async function targetState() {
    return {
      bundles: await data(dst, '/bundles'),
      policies: await data(dst, '/payment-policies'),
      promos: await data(dst, '/promo-codes'),
      groups: await data(dst, '/admission-groups'),
      tables: await data(dst, '/table-profiles'),
      lists: await data(dst, '/list-profiles'),
    };
  }

  async function scenario() {
    await created(src.post('/bundles', { name: 'Source bundle' }));
    await created(src.post('/payment-policies', { name: 'Source policy' }));
    await created(src.post('/promo-codes', { name: 'Source', code: 'SRC', discount_pct: 5 }));
    await created(src.post('/admission-groups', { name: 'Source group' }));
    await created(src.post('/list-profiles', { name: 'Source list' }));
    const bundle = await created(dst.post('/bundles', { name: 'Target bundle' }));
    await created(dst.post(`/bundles/${bundle}/items`, { name: 'Item', price: 100 }));
    const policy = await created(dst.post('/payment-policies', { name: 'Target policy' }));
    await created(dst.post('/promo-codes', { name: 'Target', code: 'DST', discount_pct: 5 }));
    const group = await created(dst.post('/admission-groups', { name: 'Target group' }));
    await created(dst.post('/list-profiles', { name: 'Target list', admission_rule_group_id: group }));
    await created(dst.post('/table-profiles', { name: 'Target table', payment_policy_id: policy, bundle_ids: [bundle] }));
    const rule = await insertAccessRule(t, target, { payment_policy_id: policy, bundle_ids: JSON.stringify([bundle]) });
    return { rule, before: await targetState(), ruleBefore: await readRow(t, 'access_rules', rule) };
  }

  const auth = () => t.ctx.access.loadAuth({ headers: op.headers } as never).then((a) => a!);
  const everything = ['bundles', 'payment-policies', 'promo-codes', 'admission-rules', 'access-profiles'];
  /** The copy-from service over a registry holding only `scope`. */
  const serviceWith = (scope: CopyScope) => {
    const scopes = new CopyScopes();
    scopes.register(scope);
    return createCopyFromService({ db: t.db, clock: t.clock, access: t.ctx.access, scopes });
  };

  it('a scope that throws after writing leaves the target exactly as it was', async () => {
    const { rule, before, ruleBefore } = await scenario();
    const service = serviceWith(failingAfter(everything, async () => {
      throw new Error('boom');
    }));
    await expect(service.copyFrom(await auth(), target, { source_venue_id: source, scope: 'failing' })).rejects.toThrow('boom');
    expect(await targetState()).toEqual(before);
    expect(await readRow(t, 'access_rules', rule)).toEqual(ruleBefore);
  });

  it('a scope that hits a database error half-way leaves the target exactly as it was', async () => {
    const { rule, before, ruleBefore } = await scenario();
    const service = serviceWith(failingAfter(everything, async ({ trx }) => {
        // (venue_id, code) is unique: a second SRC at the target violates it.
        const row = await trx.selectFrom('promo_codes').selectAll().where('venue_id', '=', target).where('code', '=', 'SRC').executeTakeFirstOrThrow();
        await trx.insertInto('promo_codes').values({ ...row, id: newId('promo') }).execute();
        return 0;
    }));
    await expect(service.copyFrom(await auth(), target, { source_venue_id: source, scope: 'failing' })).rejects.toThrow();
    expect(await targetState()).toEqual(before);
    expect(await readRow(t, 'access_rules', rule)).toEqual(ruleBefore);
    // The database is usable afterwards, and a real copy still works.
    expect(await copied('bundles')).toBe(1);
  });

  it('concurrent copies into one venue do not interleave: the target ends with one copy of the source', async () => {
    for (const name of ['One', 'Two', 'Three']) {
      const id = await created(src.post('/bundles', { name }));
      await created(src.post(`/bundles/${id}/items`, { name: `${name} item`, price: 100 }));
    }
    await created(src.post('/promo-codes', { name: 'P', code: 'PROMO', discount_pct: 5 }));
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => copy(i % 2 ? 'bundles' : 'promo-codes')),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const bundles = await data(dst, '/bundles');
    expect(bundles.map((b) => b.name).sort()).toEqual(['One', 'Three', 'Two']);
    expect(bundles.every((b) => b.items.length === 1)).toBe(true);
    expect((await t.db.kysely.selectFrom('bundle_items').select('id').where('venue_id', '=', target).execute()).length).toBe(3);
    expect((await data(dst, '/promo-codes')).map((p) => p.code)).toEqual(['PROMO']);
  });
});

describe('copy-from: references between scopes are remapped to the target’s copies', () => {
  it('bundles, payment-policies, admission-rules, access-profiles, then access-rules: the copied rules point at the copies', async () => {
    const srcBundle = await created(src.post('/bundles', { name: 'Drinks' }));
    const srcPolicy = await created(src.post('/payment-policies', { name: 'Deposit', deposit_type: 'deposit' }));
    const srcGroup = await created(src.post('/admission-groups', { name: 'Door' }));
    const srcList = await created(src.post('/list-profiles', { name: 'Guests', admission_rule_group_id: srcGroup }));
    const srcTable = await created(src.post('/table-profiles', { name: 'Dinner', payment_policy_id: srcPolicy, bundle_ids: [srcBundle] }));
    const srcRule = await insertAccessRule(t, source, {
      name: 'Friday',
      list_profile_id: srcList,
      table_profile_id: srcTable,
      payment_policy_id: srcPolicy,
      bundle_ids: JSON.stringify([srcBundle]),
    });
    // The target starts with a rule that will be replaced.
    await insertAccessRule(t, target, { name: 'Old' });

    for (const scope of ['bundles', 'payment-policies', 'admission-rules', 'access-profiles']) await copied(scope);
    expect(await copied('access-rules')).toBe(1);

    const bundle = byName(await data(dst, '/bundles'), 'Drinks')!;
    const policy = byName(await data(dst, '/payment-policies'), 'Deposit')!;
    const group = byName(await data(dst, '/admission-groups'), 'Door')!;
    const list = byName(await data(dst, '/list-profiles'), 'Guests')!;
    const tableProfile = byName(await data(dst, '/table-profiles'), 'Dinner')!;
    expect(list.admission_rule_group_id).toBe(group.id);
    expect(tableProfile).toMatchObject({ payment_policy_id: policy.id, bundle_ids: [bundle.id] });

    const rules = await t.db.kysely.selectFrom('access_rules').selectAll().where('venue_id', '=', target).execute();
    expect(rules.map((r) => r.name)).toEqual(['Friday']);
    expect(rules[0]).toMatchObject({ list_profile_id: list.id, table_profile_id: tableProfile.id, payment_policy_id: policy.id });
    expect(JSON.parse(rules[0].bundle_ids)).toEqual([bundle.id]);
    // None of the target's references name a source row.
    const sourceIds = [srcBundle, srcPolicy, srcGroup, srcList, srcTable, srcRule];
    expect(sourceIds.some((id) => JSON.stringify({ rules, list, tableProfile }).includes(id))).toBe(false);
  });

  it('access-profiles re-points the target’s ticket types (events module) by family and name', async () => {
    await created(src.post('/ticket-profiles', { name: 'GA', show_capacity: true }));
    const oldGa = await created(dst.post('/ticket-profiles', { name: 'GA' }));
    const oldVip = await created(dst.post('/ticket-profiles', { name: 'VIP' }));
    const ga = await insertTicketType(t, { ticket_profile_id: oldGa });
    const vip = await insertTicketType(t, { ticket_profile_id: oldVip });
    expect(await copied('access-profiles')).toBe(1);
    const newGa = byName(await data(dst, '/ticket-profiles'), 'GA')!;
    expect(newGa.id).not.toBe(oldGa);
    expect(await readRow(t, 'ticket_types', ga)).toMatchObject({ ticket_profile_id: newGa.id });
    expect(await readRow(t, 'ticket_types', vip)).toMatchObject({ ticket_profile_id: null });
  });

  it('availability and tables through the route: counts and links to the copies', async () => {
    const period = await created(src.post('/time-periods', { name: 'Dinner', time_from: '18:00', time_to: '23:00' }));
    await created(src.post('/shifts', { name: 'Weeknights', days_of_week: ['mon', 'tue'], time_type: 'custom', time_period_id: period }));
    await created(src.post('/blackouts', { date_from: '2026-12-25', date_to: '2026-12-26' }));
    await created(src.post('/access-rules', { name: 'Walk-in' }));
    expect(await copied('availability')).toBe(4);
    const shifts = await t.db.kysely.selectFrom('shifts').selectAll().where('venue_id', '=', target).execute();
    const periods = await t.db.kysely.selectFrom('time_periods').selectAll().where('venue_id', '=', target).execute();
    expect(shifts).toHaveLength(1);
    expect(shifts[0].time_period_id).toBe(periods[0].id);
    expect(shifts[0].time_period_id).not.toBe(period);

    const areaId = await created(src.post('/seating-areas', { name: 'Terrace' }));
    const tableId = await created(src.post('/tables', { table_number: '7' }));
    await src.post('/tables/set-area', { table_ids: [tableId], seating_area_id: areaId });
    expect(await copied('tables')).toBeGreaterThanOrEqual(2);
    const tables = await t.db.kysely.selectFrom('venue_tables').selectAll().where('venue_id', '=', target).execute();
    const areas = await t.db.kysely.selectFrom('seating_areas').selectAll().where('venue_id', '=', target).execute();
    expect(tables.map((row) => row.table_number)).toEqual(['7']);
    expect(tables[0].seating_area_id).toBe(areas[0].id);
  });
});

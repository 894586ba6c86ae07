// Copy-from of the scopes other modules own (shifts, availability, tables) through the route, the queue
// settings, and references between scopes remapped to the target’s copies.
import { describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids.js';
import { insertAccessRule, insertShift, insertTicketType, readRow } from '../../../test/helpers/rows.js';
import {
  byName,
  copied,
  copy,
  created,
  data,
  dst,
  insertNamed,
  op,
  source,
  src,
  t,
  target,
  useTwoVenues,
} from './copy-from.test-support.js';

useTwoVenues();

describe('copy-from: another module’s scopes through the route', () => {
  it('shifts: copied with their payment policy matched by name in the target', async () => {
    const srcPolicy = await created(src.post('/payment-policies', { name: 'Deposit' }));
    const dstPolicy = await created(dst.post('/payment-policies', { name: 'Deposit' }));
    await insertShift(t, source, { name: 'Friday night', payment_policy_id: srcPolicy });
    await insertShift(t, source, { name: 'Saturday night' });
    const old = await insertShift(t, target, { name: 'Old shift' });

    expect(await copied('shifts')).toBe(2);
    const shifts = await t.db.kysely
      .selectFrom('shifts')
      .select(['id', 'name', 'payment_policy_id'])
      .where('venue_id', '=', target)
      .execute();
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
      .values({
        id: booking,
        operator_id: op.operatorId,
        venue_id: target,
        kind: 'table',
        status: 'confirmed',
        booking_date: '2026-06-20',
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .execute();
    await t.db.kysely
      .insertInto('booking_tables')
      .values({
        booking_id: booking,
        table_id: table,
        venue_id: target,
        starts_at: '2026-06-20T18:00:00.000Z',
        ends_at: '2026-06-20T20:00:00.000Z',
      })
      .execute();
    await insertNamed('venue_tables', source, { table_number: 'S1' });

    const res = await copy('tables');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: expect.any(String) });
    expect(await readRow(t, 'venue_tables', table)).toMatchObject({ table_number: 'T1' });
  });
});

describe('copy-from: queue', () => {
  it('copies the door and queue settings onto the target venue', async () => {
    const settings = {
      queue_skip_price: 12.5,
      surge_threshold: 80,
      surge_price: 20,
      backdoor_capacity: 40,
      last_entry_time: '02:30',
      max_plus_ones: 6,
    };
    await t.db.kysely.updateTable('venues').set(settings).where('id', '=', source).execute();
    expect(await copied('queue')).toBe(1);
    const row = await t.db.kysely.selectFrom('venues').selectAll().where('id', '=', target).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ...settings, name: 'Target' });
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

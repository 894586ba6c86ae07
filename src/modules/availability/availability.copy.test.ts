import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createTestApp,
  insertVenue,
  insertVenueRow,
  TINY_IMAGES,
  venueApi,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { withTransaction } from '../../db/transaction.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** `venueApi` plus `create`: a POST that must answer 200, returning the new id. */
function api(venueId: string, headers: Record<string, string>) {
  const v = venueApi(t, headers, venueId);
  return {
    ...v,
    async create(path: string, payload: object): Promise<string> {
      const res = await v.post(path, payload);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      return res.json().id;
    },
  };
}

const scope = (name: string) => t.ctx.copyScopes.get(name)!;

async function copy(name: string, op: TestOperator, sourceVenueId: string, targetVenueId: string) {
  return withTransaction(t.db, (trx) =>
    scope(name).copy({ trx, operatorId: op.operatorId, sourceVenueId, targetVenueId, now: t.clock.now() }),
  );
}

/**
 * A source venue with a full availability set, and a target venue that already has rows of every kind
 * plus some same-named things to match (area Terrace, table 1, price list, policy, bundle) and some not.
 */
async function scenario() {
  const op = await createOperator(t);
  const sourceId = await insertVenue(t, op.operatorId);
  const targetId = await insertVenue(t, op.operatorId);
  const s = api(sourceId, op.headers);
  const d = api(targetId, op.headers);

  const src = {
    period: await s.create('/time-periods', { name: 'Dinner', time_from: '18:00', time_to: '23:00' }),
    area: await s.create('/seating-areas', { name: 'Terrace' }),
    onlyHere: await s.create('/seating-areas', { name: 'Rooftop' }),
    table: await s.create('/tables', { table_number: '1' }),
    table2: await s.create('/tables', { table_number: '2' }),
    pricelist: await s.create('/pricelists', { name: 'Weekend' }),
    policy: await insertVenueRow(t, 'payment_policies', sourceId, { name: 'Deposit' }),
    bundle: await insertVenueRow(t, 'bundles', sourceId, { name: 'Bottles' }),
    listProfile: await insertVenueRow(t, 'profiles', sourceId, { family: 'list', name: 'Guests' }),
    tableProfile: await insertVenueRow(t, 'profiles', sourceId, { family: 'table', name: 'Tables' }),
  };
  const dst = {
    period: await d.create('/time-periods', { name: 'Dinner', time_from: '19:00', time_to: '22:00' }),
    area: await d.create('/seating-areas', { name: 'Terrace' }),
    table: await d.create('/tables', { table_number: '1' }),
    pricelist: await d.create('/pricelists', { name: 'Weekend' }),
    policy: await insertVenueRow(t, 'payment_policies', targetId, { name: 'Deposit' }),
    bundle: await insertVenueRow(t, 'bundles', targetId, { name: 'Bottles' }),
    // Same name, wrong family: not a match for a table profile.
    wrongFamily: await insertVenueRow(t, 'profiles', targetId, { family: 'list', name: 'Tables' }),
  };

  await s.create('/blackouts', { date_from: '2026-12-25', date_to: '2026-12-26', description: 'Christmas', affects_events: false });
  const shiftBody = {
    name: 'Dinner shift',
    days_of_week: ['fri', 'sat'],
    time_type: 'custom',
    time_period_id: src.period,
    party_size_min: 2,
    party_size_max: 6,
    seating_area_ids: [src.area, src.onlyHere],
    table_ids: [src.table, src.table2],
    duration_type: 'custom',
    duration_minutes: 90,
    payment_policy_id: src.policy,
  };
  await s.create('/shifts', shiftBody);
  const ruleBody = {
    name: 'Bottle tables',
    rule_type: 'table',
    party_size_enabled: true,
    party_size_min: 2,
    party_size_max: 8,
    seating_enabled: true,
    seating_area_ids: [src.area, src.onlyHere],
    guest_pick_area_ids: [src.area],
    table_ids: [src.table, src.table2],
    bundles_enabled: true,
    bundle_ids: [src.bundle],
    surge_price_enabled: true,
    surge_price_value: 12.5,
    reservation_tags: ['VIP'],
    pricelist_id: src.pricelist,
    payment_policy_id: src.policy,
    list_profile_id: src.listProfile,
    table_profile_id: src.tableProfile,
  };
  const rule = await s.create('/access-rules', ruleBody);
  const image = await s.post(`/access-rules/${rule}/image`, { data: TINY_IMAGES.gif });
  expect(image.statusCode).toBe(200);

  // The target's own rows, which the copy replaces.
  await d.create('/blackouts', { date_from: '2026-01-01', date_to: '2026-01-01' });
  await d.create('/shifts', { name: 'Old shift', days_of_week: ['mon'] });
  await d.create('/access-rules', { name: 'Old rule' });

  return { op, sourceId, targetId, s, d, src, dst, shiftBody, ruleBody, imageUrl: image.json().url as string };
}

const data = async (client: ReturnType<typeof api>, path: string) => (await client.get(path)).json().data;

describe('copy-from scopes of the availability module', () => {
  it('shifts: replaces the target shifts, matching periods, areas, tables and policies in the target', async () => {
    const { op, sourceId, targetId, d, dst, shiftBody } = await scenario();
    expect(await copy('shifts', op, sourceId, targetId)).toBe(1);
    const shifts = await data(d, '/shifts');
    expect(shifts).toEqual([
      {
        ...shiftBody,
        id: expect.any(String),
        time_from: null,
        time_to: null,
        schedule_start: null,
        schedule_end: null,
        time_period_id: dst.period,
        seating_area_ids: [dst.area],
        table_ids: [dst.table],
        payment_policy_id: dst.policy,
      },
    ]);
    // Other kinds are untouched.
    expect((await data(d, '/access-rules')).map((r: any) => r.name)).toEqual(['Old rule']);
    expect(await data(d, '/blackouts')).toHaveLength(1);
  });

  it('access-rules: replaces the target rules, matching or clearing every reference, and flags the venue', async () => {
    const { op, sourceId, targetId, d, s, dst, ruleBody, imageUrl } = await scenario();
    expect(await copy('access-rules', op, sourceId, targetId)).toBe(1);
    const [rule] = await data(d, '/access-rules');
    expect(await data(d, '/access-rules')).toHaveLength(1);
    expect(rule).toMatchObject({
      ...ruleBody,
      seating_area_ids: [dst.area],
      guest_pick_area_ids: [dst.area],
      table_ids: [dst.table],
      bundle_ids: [dst.bundle],
      pricelist_id: dst.pricelist,
      payment_policy_id: dst.policy,
      list_profile_id: null,
      table_profile_id: null,
      display_image_url: imageUrl,
    });
    expect((await data(s, '/access-rules'))[0].id).not.toBe(rule.id);
    expect((await data(d, '/shifts')).map((x: any) => x.name)).toEqual(['Old shift']);

    // Copying an empty scope empties the target, which is then no longer bookable.
    const empty = await insertVenue(t, op.operatorId);
    expect(await copy('access-rules', op, empty, targetId)).toBe(0);
    expect(await data(d, '/access-rules')).toEqual([]);
    const venue = await t.db.kysely.selectFrom('venues').select('is_bookable').where('id', '=', targetId).executeTakeFirstOrThrow();
    expect(venue.is_bookable).toBe(0);
    expect(await copy('access-rules', op, sourceId, targetId)).toBe(1);
    expect(
      (await t.db.kysely.selectFrom('venues').select('is_bookable').where('id', '=', targetId).executeTakeFirstOrThrow()).is_bookable,
    ).toBe(1);
  });

  it('availability: replaces periods, blackouts, shifts and rules; shifts point at the copied periods', async () => {
    const { op, sourceId, targetId, d, dst } = await scenario();
    expect(await copy('availability', op, sourceId, targetId)).toBe(4);
    const periods = await data(d, '/time-periods');
    expect(periods).toEqual([{ id: expect.any(String), name: 'Dinner', time_from: '18:00', time_to: '23:00' }]);
    expect(periods[0].id).not.toBe(dst.period);
    expect(await data(d, '/blackouts')).toEqual([
      {
        id: expect.any(String),
        date_from: '2026-12-25',
        date_to: '2026-12-26',
        description: 'Christmas',
        affects_guestlist: true,
        affects_events: false,
        affects_reservations: true,
      },
    ]);
    const shifts = await data(d, '/shifts');
    expect(shifts.map((x: any) => [x.name, x.time_period_id])).toEqual([['Dinner shift', periods[0].id]]);
    expect((await data(d, '/access-rules')).map((x: any) => x.name)).toEqual(['Bottle tables']);
  });

  it('rolls back with the transaction', async () => {
    const { op, sourceId, targetId, d } = await scenario();
    await expect(
      withTransaction(t.db, async (trx) => {
        await scope('availability').copy({
          trx,
          operatorId: op.operatorId,
          sourceVenueId: sourceId,
          targetVenueId: targetId,
          now: t.clock.now(),
        });
        throw new Error('a later scope failed');
      }),
    ).rejects.toThrow('a later scope failed');
    expect((await data(d, '/shifts')).map((x: any) => x.name)).toEqual(['Old shift']);
    expect((await data(d, '/access-rules')).map((x: any) => x.name)).toEqual(['Old rule']);
  });
});

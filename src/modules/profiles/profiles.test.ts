import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  expectCreated,
  insertVenue,
  insertVenueRow,
  setupVenue,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';
import { insertAccessRule, insertTicketType, readRow } from '../../../test/helpers/rows.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let api: VenueApi;

beforeAll(async () => {
  t = await createTestApp();
  ({ op, venueId, api } = await setupVenue(t));
});
afterAll(async () => t.close());

const FAMILY_PATHS = ['list-profiles', 'table-profiles', 'event-profiles', 'ticket-profiles'] as const;

/** Rows of the tables module a table profile names: seating areas, tables, price lists. */
const area = (name: string, venue = venueId) => insertVenueRow(t, 'seating_areas', venue, { name }, 'area');
let tableNumber = 0;
/** Table numbers are unique per venue: each fixture table gets a fresh one after its label. */
const table = (label: string, venue = venueId) =>
  insertVenueRow(t, 'venue_tables', venue, { table_number: `${label}-${++tableNumber}` }, 'tbl');
const pricelist = (name: string, venue = venueId) => insertVenueRow(t, 'pricelists', venue, { name }, 'prl');

async function create(path: string, body: object, a = api): Promise<string> {
  return expectCreated(await a.post(`/${path}`, body));
}

async function readBack(path: string, id: string, a = api) {
  const res = await a.get(`/${path}`);
  expect(res.statusCode).toBe(200);
  return (res.json().data as Record<string, unknown>[]).find((row) => row.id === id);
}

describe('profile families: create, read back, update, delete', () => {
  it.each([
    [
      'list-profiles',
      {
        venue_access_enabled: false,
        venue_access_value: null,
        free_guest_list_enabled: false,
        paid_guest_list_enabled: false,
        queue_skip_price_enabled: false,
        surge_threshold_enabled: false,
        surge_price_enabled: false,
        surge_price_value: null,
        party_size_enabled: false,
        party_size_min: null,
        party_size_max: null,
        booking_window_enabled: false,
        booking_cutoff_value: null,
        booking_cutoff_unit: null,
        max_covers_enabled: false,
        max_covers: null,
        admission_rule_group_id: null,
      },
    ],
    [
      'table-profiles',
      {
        seating_area_ids: [],
        table_ids: [],
        payment_policy_id: null,
        duration_enabled: false,
        duration_minutes: null,
        bundle_ids: [],
        reservation_tags: [],
        booking_window_enabled: false,
        max_covers_enabled: false,
        table_assignment_mode: 'auto',
        guest_pick_area_ids: [],
        pricelist_id: null,
        party_size_enabled: false,
      },
    ],
    [
      'event-profiles',
      {
        payment_policy_id: null,
        booking_window_enabled: false,
        bundle_ids: [],
        reservation_tags: [],
        promo_code_ids: [],
        visibility: 'public',
        listed: true,
      },
    ],
    ['ticket-profiles', { booking_window_enabled: false, visibility: 'public', booking_tags: [], show_capacity: false }],
  ])('%s: a name alone gives the family defaults', async (path, defaults) => {
    const id = await create(path, { name: '  Standard  ' });
    const row = await readBack(path, id);
    expect(row).toMatchObject({ id, name: 'Standard', ...defaults });
    expect(row).not.toHaveProperty('settings');
  });

  it('keeps each family to its own list', async () => {
    const id = await create('event-profiles', { name: 'Only events' });
    for (const path of FAMILY_PATHS.filter((p) => p !== 'event-profiles')) {
      expect(await readBack(path, id)).toBeUndefined();
    }
  });

  it('stores a list profile with toggles, paired values and its admission group', async () => {
    const group = await api.post('/admission-groups', { name: 'Door rules' });
    const body = {
      name: 'Friday list',
      venue_access_enabled: true,
      venue_access_value: 15,
      free_guest_list_enabled: 1,
      free_guest_list_value: 40,
      paid_guest_list_enabled: true,
      paid_guest_list_value: 10.5,
      queue_skip_price_enabled: true,
      queue_skip_price_value: 20,
      surge_threshold_enabled: true,
      surge_threshold_value: 80,
      surge_price_enabled: true,
      surge_price_value: 25,
      party_size_enabled: true,
      party_size_min: 1,
      party_size_max: 6,
      booking_window_enabled: true,
      booking_cutoff_value: 2,
      booking_cutoff_unit: 'hours',
      booking_start_value: 30,
      booking_start_unit: 'days',
      max_covers_enabled: true,
      max_covers: 200,
      admission_rule_group_id: group.json().id,
    };
    const id = await create('list-profiles', body);
    expect(await readBack('list-profiles', id)).toMatchObject({ ...body, free_guest_list_enabled: true });
  });

  it('stores a table profile with its lists, references and assignment mode', async () => {
    const policy = await api.post('/payment-policies', { name: 'Deposit' });
    const bundle = await api.post('/bundles', { name: 'Drinks' });
    const [sa1, sa2, tbl1, pl] = [await area('Terrace'), await area('Bar'), await table('1'), await pricelist('Peak')];
    const body = {
      name: 'Dinner',
      seating_area_ids: [sa1, sa2, sa1],
      table_ids: [tbl1],
      payment_policy_id: policy.json().id,
      duration_enabled: true,
      duration_minutes: 90,
      bundle_ids: [bundle.json().id],
      reservation_tags: ['Birthday'],
      table_assignment_mode: 'guest_pick',
      guest_pick_area_ids: [sa2],
      pricelist_id: pl,
      party_size_enabled: true,
      party_size_min: 2,
      party_size_max: 2,
    };
    const id = await create('table-profiles', body);
    expect(await readBack('table-profiles', id)).toMatchObject({ ...body, seating_area_ids: [sa1, sa2] });
  });

  it('stores event and ticket profiles', async () => {
    const promo = await api.post('/promo-codes', { name: 'Launch', code: 'evt10', discount_pct: 10 });
    const eventBody = { name: 'Gig', promo_code_ids: [promo.json().id], visibility: 'private', listed: false, reservation_tags: ['VIP'] };
    const eventId = await create('event-profiles', eventBody);
    expect(await readBack('event-profiles', eventId)).toMatchObject(eventBody);
    const ticketBody = {
      name: 'GA',
      visibility: 'public',
      booking_tags: ['Early bird'],
      show_capacity: true,
      booking_window_enabled: true,
      booking_start_value: 2,
      booking_start_unit: 'months',
    };
    const ticketId = await create('ticket-profiles', ticketBody);
    expect(await readBack('ticket-profiles', ticketId)).toMatchObject(ticketBody);
  });

  it.each(FAMILY_PATHS)('%s: PUT changes what it sends, keeps the rest, and needs a name', async (path) => {
    const id = await create(path, { name: 'Before', booking_window_enabled: true, booking_cutoff_value: 1, booking_cutoff_unit: 'hours' });
    const ok = await api.put(`/${path}/${id}`, { name: 'After', booking_cutoff_value: 3 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    expect(await readBack(path, id)).toMatchObject({
      name: 'After',
      booking_window_enabled: true,
      booking_cutoff_value: 3,
      booking_cutoff_unit: 'hours',
    });

    const noName = await api.put(`/${path}/${id}`, { booking_cutoff_value: 4 });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error).toMatch(/name/);
    const blank = await api.put(`/${path}/${id}`, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect((await readBack(path, id))?.name).toBe('After');
  });

  it('accepts a read-back row as a PUT body (id and timestamps are ignored)', async () => {
    const id = await create('table-profiles', { name: 'Round trip' });
    const row = await readBack('table-profiles', id);
    const res = await api.put(`/table-profiles/${id}`, { ...row, name: 'Round trip 2', duration_enabled: true, duration_minutes: 60 });
    expect(res.statusCode, res.body).toBe(200);
    expect(await readBack('table-profiles', id)).toMatchObject({
      id,
      name: 'Round trip 2',
      duration_minutes: 60,
      created_at: row?.created_at,
    });
  });

  it.each(FAMILY_PATHS)('%s: DELETE removes it', async (path) => {
    const id = await create(path, { name: 'Doomed' });
    const res = await api.del(`/${path}/${id}`);
    expect(res.json()).toEqual({ success: true });
    expect(await readBack(path, id)).toBeUndefined();
    expect((await api.del(`/${path}/${id}`)).statusCode).toBe(404);
  });
});

describe('profile validation', () => {
  it.each([
    ['list-profiles', {}, /name/],
    ['list-profiles', { name: '' }, /name/],
    ['list-profiles', { name: '  ' }, /name/],
    ['list-profiles', { name: 'x', venue_access_enabled: true }, /venue_access_value is required/],
    ['list-profiles', { name: 'x', surge_price_enabled: true, surge_price_value: null }, /surge_price_value is required/],
    ['list-profiles', { name: 'x', party_size_enabled: true, party_size_min: 2 }, /party_size_max is required/],
    ['list-profiles', { name: 'x', party_size_min: 5, party_size_max: 2 }, /party_size_min must not exceed/],
    ['list-profiles', { name: 'x', party_size_min: 0 }, /party_size_min/],
    ['list-profiles', { name: 'x', max_covers_enabled: true }, /max_covers is required/],
    ['list-profiles', { name: 'x', venue_access_value: -1 }, /venue_access_value/],
    ['list-profiles', { name: 'x', venue_access_enabled: 'yes' }, /venue_access_enabled/],
    ['list-profiles', { name: 'x', admission_rule_group_id: 'adg_missing' }, /admission_rule_group_id/],
    ['table-profiles', { name: 'x', duration_enabled: true }, /duration_minutes is required/],
    ['table-profiles', { name: 'x', table_assignment_mode: 'random' }, /table_assignment_mode/],
    ['table-profiles', { name: 'x', table_ids: 'tbl_1' }, /table_ids/],
    ['table-profiles', { name: 'x', payment_policy_id: 'pp_missing' }, /payment_policy_id/],
    ['table-profiles', { name: 'x', bundle_ids: ['bnd_missing'] }, /bundle_ids/],
    ['table-profiles', { name: 'x', pricelist_id: 'prl_missing' }, /pricelist_id does not name one of this venue's price lists/],
    [
      'table-profiles',
      { name: 'x', seating_area_ids: ['area_missing'] },
      /seating_area_ids contains ids that are not this venue's seating areas/,
    ],
    ['table-profiles', { name: 'x', guest_pick_area_ids: ['area_missing'] }, /guest_pick_area_ids/],
    ['table-profiles', { name: 'x', table_ids: ['tbl_missing'] }, /table_ids contains ids that are not this venue's tables/],
    ['table-profiles', { name: 'x', pricelist_id: '' }, /pricelist_id/],
    ['event-profiles', { name: 'x', promo_code_ids: ['promo_missing'] }, /promo_code_ids/],
    ['event-profiles', { name: 'x', booking_window_enabled: true }, /booking_cutoff_value or booking_start_value/],
    ['event-profiles', { name: 'x', booking_cutoff_value: 2 }, /booking_cutoff_unit is required/],
    ['ticket-profiles', { name: 'x', booking_start_value: 2, booking_start_unit: 'fortnights' }, /booking_start_unit/],
    ['ticket-profiles', { name: 'x', visibility: '' }, /visibility/],
    ['ticket-profiles', { name: 'x', show_capacity: 2 }, /show_capacity/],
  ])('%s %j → 400', async (path, body, message) => {
    const res = await api.post(`/${path}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('refuses references to another venue’s admission group, payment policy and bundles', async () => {
    const other = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    const group = (await other.post('/admission-groups', { name: 'Theirs' })).json().id;
    const policy = (await other.post('/payment-policies', { name: 'Theirs' })).json().id;
    const bundle = (await other.post('/bundles', { name: 'Theirs' })).json().id;
    expect((await api.post('/list-profiles', { name: 'x', admission_rule_group_id: group })).statusCode).toBe(400);
    expect((await api.post('/table-profiles', { name: 'x', payment_policy_id: policy })).statusCode).toBe(400);
    expect((await api.post('/event-profiles', { name: 'x', bundle_ids: [bundle] })).statusCode).toBe(400);
  });

  it('refuses another operator’s price list, seating areas and tables, alone or mixed with the venue’s own', async () => {
    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    const [theirArea, theirTable, theirList] = [
      await area('Terrace', theirVenue),
      await table('1', theirVenue),
      await pricelist('Peak', theirVenue),
    ];
    const [myArea, myTable] = [await area('Terrace'), await table('1')];
    const bodies = [
      { pricelist_id: theirList },
      { seating_area_ids: [myArea, theirArea] },
      { guest_pick_area_ids: [theirArea] },
      { table_ids: [myTable, theirTable] },
    ];
    for (const body of bodies) {
      const res = await api.post('/table-profiles', { name: 'Leaky', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await api.get('/table-profiles')).json().data.map((p: { name: string }) => p.name)).not.toContain('Leaky');

    // On update too, and the stored profile is left as it was.
    const id = await create('table-profiles', { name: 'Mine', seating_area_ids: [myArea], table_ids: [myTable] });
    for (const body of bodies) expect((await api.put(`/table-profiles/${id}`, { name: 'Mine', ...body })).statusCode).toBe(400);
    expect(await readBack('table-profiles', id)).toMatchObject({ seating_area_ids: [myArea], table_ids: [myTable], pricelist_id: null });
  });

  it('validates the merged state on update: turning a toggle on without its value is refused', async () => {
    const id = await create('table-profiles', { name: 'Merge' });
    const res = await api.put(`/table-profiles/${id}`, { name: 'Merge', duration_enabled: true });
    expect(res.statusCode).toBe(400);
    const withValue = await api.put(`/table-profiles/${id}`, { name: 'Merge', duration_minutes: 45 });
    expect(withValue.statusCode).toBe(200);
    const now = await api.put(`/table-profiles/${id}`, { name: 'Merge', duration_enabled: true });
    expect(now.statusCode).toBe(200);
    expect(await readBack('table-profiles', id)).toMatchObject({ duration_enabled: true, duration_minutes: 45 });
  });
});

describe('profile access control', () => {
  it('answers 401 without a session', async () => {
    for (const path of FAMILY_PATHS) {
      const res = await t.app.inject({ method: 'GET', url: `/api/my-venues/${venueId}/${path}` });
      expect(res.statusCode).toBe(401);
    }
  });

  it('lets profiles:read list but not write; 403 without the permission', async () => {
    const reader = await createStaff(t, op, { profiles: 'read' });
    const asReader = venueApi(t, reader.headers, venueId);
    expect((await asReader.get('/list-profiles')).statusCode).toBe(200);
    expect((await asReader.post('/list-profiles', { name: 'No' })).statusCode).toBe(403);
    const outsider = await createStaff(t, op, { catalogue: 'write' });
    expect((await venueApi(t, outsider.headers, venueId).get('/ticket-profiles')).statusCode).toBe(403);
    const writer = await createStaff(t, op, { profiles: 'write' });
    expect((await venueApi(t, writer.headers, venueId).post('/list-profiles', { name: 'Yes' })).statusCode).toBe(200);
  });

  it('answers 404 for another operator’s venue, for a role outside its venue scope, and for ids of another venue or family', async () => {
    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    expect((await venueApi(t, op.headers, theirVenue).get('/list-profiles')).statusCode).toBe(404);
    const theirId = await create('list-profiles', { name: 'Theirs' }, venueApi(t, stranger.headers, theirVenue));
    expect((await api.put(`/list-profiles/${theirId}`, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await api.del(`/list-profiles/${theirId}`)).statusCode).toBe(404);

    const scoped = await createStaff(t, op, { profiles: 'write' }, [await insertVenue(t, op.operatorId)]);
    expect((await venueApi(t, scoped.headers, venueId).get('/list-profiles')).statusCode).toBe(404);

    const listId = await create('list-profiles', { name: 'A list profile' });
    expect((await api.put(`/table-profiles/${listId}`, { name: 'Wrong family' })).statusCode).toBe(404);
    expect((await api.del(`/table-profiles/${listId}`)).statusCode).toBe(404);
  });
});

describe('profile delete side effects', () => {
  it('detaches list and table profiles from the venue’s access rules', async () => {
    const listId = await create('list-profiles', { name: 'L' });
    const tableId = await create('table-profiles', { name: 'T' });
    const both = await insertAccessRule(t, venueId, { list_profile_id: listId, table_profile_id: tableId });
    const other = await insertAccessRule(t, venueId, { list_profile_id: null, table_profile_id: tableId });

    expect((await api.del(`/list-profiles/${listId}`)).statusCode).toBe(200);
    expect(await readRow(t, 'access_rules', both)).toMatchObject({ list_profile_id: null, table_profile_id: tableId });

    expect((await api.del(`/table-profiles/${tableId}`)).statusCode).toBe(200);
    expect(await readRow(t, 'access_rules', both)).toMatchObject({ list_profile_id: null, table_profile_id: null });
    expect(await readRow(t, 'access_rules', other)).toMatchObject({ table_profile_id: null });
  });

  it('detaches a ticket profile from ticket types once that table exists', async () => {
    // The events module owns ticket_types; until it lands, a stand-in table with its repointer (test/helpers/rows.ts).
    const ticketId = await create('ticket-profiles', { name: 'Tix' });
    const keptId = await create('ticket-profiles', { name: 'Kept' });
    const detach = await insertTicketType(t, { ticket_profile_id: ticketId });
    const keep = await insertTicketType(t, { ticket_profile_id: keptId });
    expect((await api.del(`/ticket-profiles/${ticketId}`)).statusCode).toBe(200);
    expect(await readRow(t, 'ticket_types', detach)).toMatchObject({ ticket_profile_id: null });
    expect(await readRow(t, 'ticket_types', keep)).toMatchObject({ ticket_profile_id: keptId });
  });
});

describe('floorplan changes reaching table profiles', () => {
  it('drops deleted tables and areas, re-points copied ones, and leaves other venues alone', async () => {
    const [areaA, areaB, tbl1, tbl2, tbl9] = [await area('A'), await area('B'), await table('1'), await table('2'), await table('9')];
    const id = await create('table-profiles', {
      name: 'Floorplan',
      seating_area_ids: [areaA, areaB],
      guest_pick_area_ids: [areaA],
      table_ids: [tbl1, tbl2],
    });
    const otherVenue = await insertVenue(t, op.operatorId);
    const otherApi = venueApi(t, op.headers, otherVenue);
    // Ids are global, so the same ids cannot be the other venue's; its profile holds its own.
    const [otherArea, otherTable] = [await area('A', otherVenue), await table('1', otherVenue)];
    const otherId = await create('table-profiles', { name: 'Elsewhere', seating_area_ids: [otherArea], table_ids: [otherTable] }, otherApi);

    // What the tables module does when areas and tables are deleted or replaced by copies.
    const at = t.clock.now().toISOString();
    await t.ctx.references.repoint(
      t.db,
      'seating_area',
      venueId,
      new Map([
        [areaA, null],
        [otherArea, null],
      ]),
      at,
    );
    await t.ctx.references.repoint(
      t.db,
      'table',
      venueId,
      new Map<string, string | null>([
        [tbl1, tbl9],
        [otherTable, null],
      ]),
      at,
    );

    expect(await readBack('table-profiles', id)).toMatchObject({
      seating_area_ids: [areaB],
      guest_pick_area_ids: [],
      table_ids: [tbl9, tbl2],
    });
    expect(await readBack('table-profiles', otherId, otherApi)).toMatchObject({ seating_area_ids: [otherArea], table_ids: [otherTable] });
  });
});

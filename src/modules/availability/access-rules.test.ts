import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  insertVenueRow,
  pngOfSize,
  setupVenue,
  TINY_IMAGES,
  venueApi,
  type TestApp,
  type VenueApi,
} from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Rows of the profiles and catalogue modules' tables (their own tests cover their routes), and of this venue's floorplan. */
async function references(venueId: string, v: VenueApi) {
  return {
    list_profile_id: await insertVenueRow(t, 'profiles', venueId, { family: 'list', name: 'Guest list' }),
    table_profile_id: await insertVenueRow(t, 'profiles', venueId, { family: 'table', name: 'Tables' }),
    payment_policy_id: await insertVenueRow(t, 'payment_policies', venueId, { name: 'Deposit' }),
    bundle_id: await insertVenueRow(t, 'bundles', venueId, { name: 'Bottles' }),
    pricelist_id: (await v.post('/pricelists', { name: 'Weekend' })).json().id as string,
    area_id: (await v.post('/seating-areas', { name: 'Terrace' })).json().id as string,
    table_id: (await v.post('/tables', { table_number: '1' })).json().id as string,
  };
}

const isBookable = async (venueId: string) =>
  (await t.db.kysely.selectFrom('venues').select('is_bookable').where('id', '=', venueId).executeTakeFirstOrThrow()).is_bookable;

const DEFAULT_RULE = {
  rule_type: 'table',
  days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  time_from: null,
  time_to: null,
  app_opt_out: false,
  party_size_enabled: false,
  party_size_min: null,
  party_size_max: null,
  table_assignment_mode: 'auto',
  guest_pick_area_ids: [],
  duration_enabled: false,
  duration_minutes: null,
  display_enabled: false,
  display_title: null,
  display_description: null,
  display_image_url: null,
  seating_enabled: false,
  seating_area_ids: [],
  table_ids: [],
  bundles_enabled: false,
  bundle_ids: [],
  booking_window_enabled: false,
  booking_cutoff_value: null,
  booking_cutoff_unit: null,
  booking_start_value: null,
  booking_start_unit: null,
  max_covers_enabled: false,
  max_covers: null,
  venue_access_enabled: false,
  venue_access_value: null,
  free_guest_list_enabled: false,
  free_guest_list_value: null,
  paid_guest_list_enabled: false,
  paid_guest_list_value: null,
  queue_skip_price_enabled: false,
  queue_skip_price_value: null,
  surge_threshold_enabled: false,
  surge_threshold_value: null,
  surge_price_enabled: false,
  surge_price_value: null,
  reservation_tags: [],
  pricelist_id: null,
  payment_policy_id: null,
  list_profile_id: null,
  table_profile_id: null,
};

describe('access rules', () => {
  it('creates with only a name; the first rule flags the venue bookable, removing the last clears it', async () => {
    const { venueId, api: v } = await setupVenue(t);
    expect(await isBookable(venueId)).toBe(0);
    const res = await v.post('/access-rules', { name: 'Walk-in tables' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.any(String) });
    const id = res.json().id;
    expect((await v.get('/access-rules')).json().data).toEqual([{ id, name: 'Walk-in tables', ...DEFAULT_RULE }]);
    expect(await isBookable(venueId)).toBe(1);

    const second = (await v.post('/access-rules', { name: 'Second' })).json().id;
    await v.del(`/access-rules/${id}`);
    expect(await isBookable(venueId)).toBe(1);
    expect((await v.del(`/access-rules/${second}`)).json()).toEqual({ success: true });
    expect(await isBookable(venueId)).toBe(0);
    expect((await v.get('/access-rules')).json().data).toEqual([]);
    expect((await v.del(`/access-rules/${second}`)).statusCode).toBe(404);
  });

  it('round-trips every field group, and PUT takes the same body', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const ref = await references(venueId, v);
    const body = {
      name: 'VIP booths',
      rule_type: 'guestlist',
      days_of_week: ['sat', 'fri'],
      time_from: '21:00',
      time_to: '03:00',
      app_opt_out: true,
      party_size_enabled: true,
      party_size_min: 2,
      party_size_max: 8,
      table_assignment_mode: 'guest_pick',
      guest_pick_area_ids: [ref.area_id],
      duration_enabled: 1,
      duration_minutes: 180,
      display_enabled: true,
      display_title: 'VIP',
      display_description: 'Booths with bottle service',
      seating_enabled: true,
      seating_area_ids: [ref.area_id],
      table_ids: [ref.table_id],
      bundles_enabled: true,
      bundle_ids: [ref.bundle_id],
      booking_window_enabled: true,
      booking_cutoff_value: 2,
      booking_cutoff_unit: 'hours',
      booking_start_value: 30,
      booking_start_unit: 'days',
      max_covers_enabled: true,
      max_covers: 80,
      venue_access_enabled: true,
      venue_access_value: 10,
      free_guest_list_enabled: true,
      free_guest_list_value: 0,
      paid_guest_list_enabled: true,
      paid_guest_list_value: 15.5,
      queue_skip_price_enabled: true,
      queue_skip_price_value: 20,
      surge_threshold_enabled: true,
      surge_threshold_value: 150,
      surge_price_enabled: true,
      surge_price_value: 25,
      reservation_tags: ['VIP', 'Birthday'],
      pricelist_id: ref.pricelist_id,
      payment_policy_id: ref.payment_policy_id,
      list_profile_id: ref.list_profile_id,
      table_profile_id: ref.table_profile_id,
    };
    const id = (await v.post('/access-rules', body)).json().id;
    expect(id).toEqual(expect.any(String));
    const expected = { id, ...body, days_of_week: ['fri', 'sat'], duration_enabled: true, display_image_url: null };
    expect((await v.get('/access-rules')).json().data).toEqual([expected]);

    // Toggles off keep their values stored (they apply again when switched back on).
    const off = { ...body, name: 'VIP (paused)', party_size_enabled: false, surge_price_enabled: 0, rule_type: 'table' };
    expect((await v.put(`/access-rules/${id}`, off)).json()).toEqual({ success: true });
    expect((await v.get('/access-rules')).json().data).toEqual([
      { ...expected, name: 'VIP (paused)', party_size_enabled: false, surge_price_enabled: false, rule_type: 'table' },
    ]);

    // What a PUT leaves out returns to its default.
    expect((await v.put(`/access-rules/${id}`, { name: 'Plain' })).statusCode).toBe(200);
    expect((await v.get('/access-rules')).json().data).toEqual([{ id, name: 'Plain', ...DEFAULT_RULE }]);
  });

  it('validates fields, toggles and their paired values', async () => {
    const { api: v } = await setupVenue(t);
    const cases: [string, object][] = [
      ['no name', {}],
      ['blank name', { name: '   ' }],
      ['unknown rule_type', { name: 'x', rule_type: 'vip' }],
      ['capitalised day', { name: 'x', days_of_week: ['Sat'] }],
      ['half a window', { name: 'x', time_from: '18:00' }],
      ['bad clock time', { name: 'x', time_from: '18:00', time_to: '18:75' }],
      ['toggle as text', { name: 'x', app_opt_out: 'yes' }],
      ['toggle as 2', { name: 'x', party_size_enabled: 2 }],
      ['party size on without values', { name: 'x', party_size_enabled: true, party_size_min: 2 }],
      ['party min above max', { name: 'x', party_size_min: 9, party_size_max: 2 }],
      ['unknown assignment mode', { name: 'x', table_assignment_mode: 'random' }],
      ['duration on without minutes', { name: 'x', duration_enabled: true }],
      ['zero minutes', { name: 'x', duration_minutes: 0 }],
      ['display on without a title', { name: 'x', display_enabled: true }],
      ['foreign image url', { name: 'x', display_image_url: 'https://evil.example/x.png' }],
      ['seating on without areas or tables', { name: 'x', seating_enabled: true }],
      ['bundles on without bundles', { name: 'x', bundles_enabled: true, bundle_ids: [] }],
      ['cutoff value without unit', { name: 'x', booking_cutoff_value: 2 }],
      ['start unit without value', { name: 'x', booking_start_unit: 'days' }],
      ['unknown unit', { name: 'x', booking_cutoff_value: 2, booking_cutoff_unit: 'fortnights' }],
      ['window on without values', { name: 'x', booking_window_enabled: true }],
      ['covers on without max', { name: 'x', max_covers_enabled: true }],
      ['negative door price', { name: 'x', surge_price_value: -1 }],
      ['tags not strings', { name: 'x', reservation_tags: [1] }],
      ...['venue_access', 'free_guest_list', 'paid_guest_list', 'queue_skip_price', 'surge_threshold', 'surge_price'].map(
        (name): [string, object] => [`${name} on without value`, { name: 'x', [`${name}_enabled`]: true }],
      ),
    ];
    for (const [label, body] of cases) {
      const res = await v.post('/access-rules', body);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      expect(res.json().error, label).toEqual(expect.any(String));
    }
    expect((await v.get('/access-rules')).json().data).toEqual([]);
    const id = (await v.post('/access-rules', { name: 'ok' })).json().id;
    expect((await v.put(`/access-rules/${id}`, { rule_type: 'table' })).statusCode).toBe(400);
    expect((await v.put(`/access-rules/${id}`, { name: 'x', max_covers_enabled: true })).statusCode).toBe(400);
    expect((await v.get('/access-rules')).json().data[0].name).toBe('ok');
  });

  it('refuses references that are not rows of the venue (or of the wrong profile family)', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    const otherVenue = await insertVenue(t, op.operatorId);
    const mine = await references(venueId, v);
    const theirs = await references(otherVenue, venueApi(t, op.headers, otherVenue));
    const cases: [string, object][] = [
      ['list profile', { list_profile_id: theirs.list_profile_id }],
      ['list profile of the table family', { list_profile_id: mine.table_profile_id }],
      ['table profile', { table_profile_id: theirs.table_profile_id }],
      ['table profile of the list family', { table_profile_id: mine.list_profile_id }],
      ['payment policy', { payment_policy_id: theirs.payment_policy_id }],
      ['price list', { pricelist_id: theirs.pricelist_id }],
      ['bundle', { bundle_ids: [mine.bundle_id, theirs.bundle_id] }],
      ['seating area', { seating_area_ids: [theirs.area_id] }],
      ['guest-pick area', { guest_pick_area_ids: [theirs.area_id] }],
      ['table', { table_ids: [mine.table_id, theirs.table_id] }],
      ['unknown price list', { pricelist_id: 'prl_nope' }],
      ['unknown payment policy', { payment_policy_id: 'pp_nope' }],
      ['unknown profile', { list_profile_id: 'prof_nope' }],
      ['unknown bundle', { bundle_ids: ['bnd_nope'] }],
    ];
    for (const [label, fields] of cases) {
      const res = await v.post('/access-rules', { name: 'x', ...fields });
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
    }
    const id = (await v.post('/access-rules', { name: 'ok', pricelist_id: mine.pricelist_id })).json().id;
    expect((await v.put(`/access-rules/${id}`, { name: 'ok', pricelist_id: theirs.pricelist_id })).statusCode).toBe(400);
    expect((await v.get('/access-rules')).json().data).toEqual([expect.objectContaining({ id, pricelist_id: mine.pricelist_id })]);
  });

  it('uploads the display image, which PUT keeps unless cleared', async () => {
    const { api: v } = await setupVenue(t);
    const id = (await v.post('/access-rules', { name: 'Terrace', display_enabled: true, display_title: 'Terrace' })).json().id;
    const res = await v.post(`/access-rules/${id}/image`, { data: TINY_IMAGES.png });
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json();
    expect(res.json()).toEqual({ success: true, url: expect.stringMatching(/^http:\/\/maitred\.test\/uploads\/[0-9a-f]{64}\.png$/) });
    expect((await v.get('/access-rules')).json().data[0].display_image_url).toBe(url);
    const served = await t.app.inject({ url: new URL(url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    await v.put(`/access-rules/${id}`, { name: 'Terrace', display_enabled: true, display_title: 'Terrace garden' });
    expect((await v.get('/access-rules')).json().data[0]).toMatchObject({ display_title: 'Terrace garden', display_image_url: url });
    await v.put(`/access-rules/${id}`, { name: 'Terrace', display_image_url: url });
    expect((await v.get('/access-rules')).json().data[0].display_image_url).toBe(url);
    await v.put(`/access-rules/${id}`, { name: 'Terrace', display_image_url: null });
    expect((await v.get('/access-rules')).json().data[0].display_image_url).toBeNull();

    expect((await v.post(`/access-rules/${id}/image`, { data: pngOfSize(2 * 1024 * 1024 + 1) })).statusCode).toBe(400);
    expect((await v.post(`/access-rules/${id}/image`, { data: 'data:image/svg+xml;base64,PHN2Zy8+' })).statusCode).toBe(400);
    expect((await v.post(`/access-rules/${id}/image`, {})).statusCode).toBe(400);
    expect((await v.post(`/access-rules/rule_nope/image`, { data: TINY_IMAGES.png })).statusCode).toBe(404);
    expect((await v.get('/access-rules')).json().data[0].display_image_url).toBeNull();
  });
});

describe('access control', () => {
  it('401 without a session, 403 without the permission', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    const id = (await v.post('/access-rules', { name: 'R' })).json().id;
    expect((await venueApi(t, {}, venueId).get('/access-rules')).statusCode).toBe(401);
    expect((await venueApi(t, {}, venueId).post(`/access-rules/${id}/image`, { data: TINY_IMAGES.png })).statusCode).toBe(401);
    const reader = venueApi(t, (await createStaff(t, op, { availability: 'read' })).headers, venueId);
    expect((await reader.get('/access-rules')).statusCode).toBe(200);
    expect((await reader.put(`/access-rules/${id}`, { name: 'Mine' })).statusCode).toBe(403);
    expect((await reader.del(`/access-rules/${id}`)).statusCode).toBe(403);
    expect((await reader.post(`/access-rules/${id}/image`, { data: TINY_IMAGES.png })).statusCode).toBe(403);
    expect((await v.get('/access-rules')).json().data[0]).toMatchObject({ name: 'R', display_image_url: null });
  });

  it('404 for another operator’s venue and for a rule of another venue', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    const other = await createOperator(t);
    expect((await venueApi(t, other.headers, venueId).get('/access-rules')).statusCode).toBe(404);
    expect((await venueApi(t, other.headers, venueId).post('/access-rules', { name: 'R' })).statusCode).toBe(404);
    expect(await isBookable(venueId)).toBe(0);

    const o = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    const theirs = (await o.post('/access-rules', { name: 'Theirs' })).json().id;
    expect((await v.put(`/access-rules/${theirs}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await v.del(`/access-rules/${theirs}`)).statusCode).toBe(404);
    expect((await v.post(`/access-rules/${theirs}/image`, { data: TINY_IMAGES.png })).statusCode).toBe(404);
    expect((await o.get('/access-rules')).json().data).toEqual([
      expect.objectContaining({ id: theirs, name: 'Theirs', display_image_url: null }),
    ]);
    expect((await v.get('/access-rules')).json().data).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { api, readVenue } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

const FULL_FIELDS = {
  name: 'The Copper Still',
  address: '12 Canal Street, Manchester',
  venue_type: 'restaurant',
  food_types: ['italian', 'small plates'],
  phone: '+44 161 000 0000',
  email: 'hello@copper.test',
  backdoor_capacity: 80,
  queue_skip_price: 7.5,
  surge_threshold: 50,
  surge_price: 12.5,
  last_entry_time: '23:30',
  max_plus_ones: 5,
  members_only: 2,
  opening_hours: {
    mon: [
      { open: '12:00', close: '15:00' },
      { open: '18:00', close: '23:00' },
    ],
    fri: [{ open: '18:00', close: '03:00' }],
  },
  guest_list_enabled: true,
  tables_enabled: 1,
  paid_guest_list_enabled: false,
  booking_policy: 'guest_list',
  default_booking_duration: 90,
  check_in_window_minutes: 45,
  default_party_min: 2,
  default_party_max: 8,
  booking_cutoff_value: 2,
  booking_cutoff_unit: 'hours',
  booking_start_value: 30,
  booking_start_unit: 'days',
  website: 'https://copper.test',
  description: 'Cocktails and pasta.',
  marketing_sender_name: 'The Copper Still',
  marketing_reply_to: 'news@copper.test',
  instagram_url: 'https://instagram.com/copper',
  tiktok_url: 'https://tiktok.com/@copper',
  twitter_url: 'https://x.com/copper',
  timezone: 'Europe/Dublin',
};

describe('POST /api/my-venues', () => {
  it('creates a live venue with the spec defaults and lists it with every field', async () => {
    const op = await createOperator(t);
    const res = await http.post('/api/my-venues', op, { name: 'Bar One', address: '1 Road' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ success: true, id: expect.stringMatching(/^ven_/), status: 'live', app_listing_status: 'pending' });
    expect(res.headers['cache-control']).toBe('private, no-store');

    const venue = await readVenue(t, op, body.id);
    expect(venue).toEqual({
      id: body.id,
      name: 'Bar One',
      address: '1 Road',
      status: 'live',
      app_listing_status: 'pending',
      venue_type: null,
      food_types: null,
      phone: null,
      email: null,
      backdoor_capacity: null,
      queue_skip_price: null,
      surge_threshold: null,
      surge_price: null,
      last_entry_time: null,
      max_plus_ones: 3,
      members_only: 0,
      opening_hours: null,
      guest_list_enabled: false,
      tables_enabled: false,
      paid_guest_list_enabled: false,
      booking_policy: null,
      default_booking_duration: 120,
      check_in_window_minutes: 120,
      default_party_min: 1,
      default_party_max: 10,
      booking_cutoff_value: null,
      booking_cutoff_unit: null,
      booking_start_value: null,
      booking_start_unit: null,
      website: null,
      description: null,
      marketing_sender_name: null,
      marketing_reply_to: null,
      instagram_url: null,
      tiktok_url: null,
      twitter_url: null,
      logo_url: null,
      cover_image_url: null,
      timezone: 'Europe/London',
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
  });

  it('accepts every venue field on create and reads them back as written', async () => {
    const op = await createOperator(t);
    const res = await http.post('/api/my-venues', op, FULL_FIELDS);
    expect(res.statusCode).toBe(200);
    const venue = await readVenue(t, op, res.json().id);
    expect(venue).toMatchObject({ ...FULL_FIELDS, tables_enabled: true, status: 'live', app_listing_status: 'pending' });
  });

  it('requires name and address', async () => {
    const op = await createOperator(t);
    for (const payload of [{ address: '1 Road' }, { name: 'No Address' }, { name: '   ', address: '1 Road' }, { name: 'X', address: '' }]) {
      const res = await http.post('/api/my-venues', op, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatch(/name|address/);
    }
    expect((await http.get('/api/my-venues', op)).json().data).toEqual([]);
  });

  it('ignores status and upload fields sent on create', async () => {
    const op = await createOperator(t);
    const res = await http.post('/api/my-venues', op, {
      name: 'Sneaky',
      address: '1 Road',
      status: 'draft',
      app_listing_status: 'approved',
      logo_url: 'http://x/y.png',
    });
    const venue = await readVenue(t, op, res.json().id);
    expect(venue).toMatchObject({ status: 'live', app_listing_status: 'pending', logo_url: null });
  });

  it('answers 401 without a session and 403 without venues.settings:write', async () => {
    expect((await http.post('/api/my-venues', null, { name: 'X', address: 'Y' })).statusCode).toBe(401);
    const op = await createOperator(t);
    const reader = await createStaff(t, op, { 'venues.settings': 'read' });
    const res = await http.post('/api/my-venues', reader, { name: 'X', address: 'Y' });
    expect(res.statusCode).toBe(403);
  });

  it('lets an account-wide role with the permission create, but not a venue-scoped one', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const wide = await createStaff(t, op, { venues: 'write' });
    expect((await http.post('/api/my-venues', wide, { name: 'Wide', address: '1 Road' })).statusCode).toBe(200);
    const scoped = await createStaff(t, op, { venues: 'write' }, [venueId]);
    const res = await http.post('/api/my-venues', scoped, { name: 'Scoped', address: '1 Road' });
    expect(res.statusCode).toBe(403);
    const names = (await http.get('/api/my-venues', op)).json().data.map((v: { name: string }) => v.name);
    expect(names).toEqual(['Test Venue', 'Wide']);
  });
});

describe('GET /api/my-venues', () => {
  it("lists only the caller's account's venues, and a scoped role only its venues", async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const a = await insertVenue(t, op.operatorId, { name: 'A' });
    const b = await insertVenue(t, op.operatorId, { name: 'B' });
    await insertVenue(t, other.operatorId, { name: 'Elsewhere' });

    const all = await http.get('/api/my-venues', op);
    expect(all.statusCode).toBe(200);
    expect(all.headers['cache-control']).toBe('private, no-store');
    expect(all.json().data.map((v: { id: string }) => v.id)).toEqual([a, b]);

    const scoped = await createStaff(t, op, { 'venues.settings': 'read' }, [b]);
    expect((await http.get('/api/my-venues', scoped)).json().data.map((v: { id: string }) => v.id)).toEqual([b]);
  });

  it('answers 401 without a session and 403 without venues.settings:read', async () => {
    const op = await createOperator(t);
    expect((await http.get('/api/my-venues', null)).statusCode).toBe(401);
    const staff = await createStaff(t, op, { tables: 'write' });
    expect((await http.get('/api/my-venues', staff)).statusCode).toBe(403);
  });
});

describe('PUT /api/my-venues/:id', () => {
  it('updates any subset and keeps omitted fields', async () => {
    const op = await createOperator(t);
    const id = (await http.post('/api/my-venues', op, FULL_FIELDS)).json().id;
    t.clock.advance(60_000);
    const res = await http.put(`/api/my-venues/${id}`, op, { name: 'Renamed', members_only: 1, guest_list_enabled: 0 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const venue = await readVenue(t, op, id);
    expect(venue).toMatchObject({ ...FULL_FIELDS, tables_enabled: true, name: 'Renamed', members_only: 1, guest_list_enabled: false });
    expect(venue.updated_at).toBe(t.clock.now().toISOString());
    expect(venue.updated_at).not.toBe(venue.created_at);
  });

  it('clears with null, and clears website and description with an empty string', async () => {
    const op = await createOperator(t);
    const id = (await http.post('/api/my-venues', op, FULL_FIELDS)).json().id;
    const res = await http.put(`/api/my-venues/${id}`, op, {
      website: '',
      description: '',
      food_types: null,
      opening_hours: null,
      phone: null,
      backdoor_capacity: null,
      last_entry_time: null,
      booking_cutoff_unit: null,
      instagram_url: '',
    });
    expect(res.statusCode).toBe(200);
    expect(await readVenue(t, op, id)).toMatchObject({
      website: null,
      description: null,
      food_types: null,
      opening_hours: null,
      phone: null,
      backdoor_capacity: null,
      last_entry_time: null,
      booking_cutoff_unit: null,
      instagram_url: null,
      venue_type: 'restaurant',
    });
  });

  it('stores food_types as sent (array or string) for restaurants and cafes', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId, { venue_type: 'cafe' });
    await http.put(`/api/my-venues/${id}`, op, { food_types: 'brunch' });
    expect((await readVenue(t, op, id)).food_types).toBe('brunch');
    await http.put(`/api/my-venues/${id}`, op, { food_types: ['brunch', 'coffee'] });
    expect((await readVenue(t, op, id)).food_types).toEqual(['brunch', 'coffee']);
    // Changing the type and the food types in one request is judged on the new type.
    const bar = await insertVenue(t, op.operatorId, { venue_type: 'bar' });
    expect((await http.put(`/api/my-venues/${bar}`, op, { venue_type: 'restaurant', food_types: ['thai'] })).statusCode).toBe(200);
    expect((await readVenue(t, op, bar)).food_types).toEqual(['thai']);
  });

  it('refuses food_types for other venue types, and clears them when the type changes away', async () => {
    const op = await createOperator(t);
    const bar = await insertVenue(t, op.operatorId, { venue_type: 'bar' });
    const refused = await http.put(`/api/my-venues/${bar}`, op, { food_types: ['tapas'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/food_types.*restaurant or cafe/);
    const untyped = await insertVenue(t, op.operatorId);
    expect((await http.put(`/api/my-venues/${untyped}`, op, { food_types: 'tapas' })).statusCode).toBe(400);
    expect(
      (await http.post('/api/my-venues', op, { name: 'Club', address: '1 Road', venue_type: 'club', food_types: ['x'] })).statusCode,
    ).toBe(400);
    expect((await http.put(`/api/my-venues/${bar}`, op, { food_types: null })).statusCode).toBe(200);

    const cafe = await insertVenue(t, op.operatorId, { venue_type: 'cafe', food_types: JSON.stringify(['cake']) });
    expect((await http.put(`/api/my-venues/${cafe}`, op, { venue_type: 'bar' })).statusCode).toBe(200);
    expect(await readVenue(t, op, cafe)).toMatchObject({ venue_type: 'bar', food_types: null });
  });

  it('validates opening_hours', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    const bad: [unknown, RegExp][] = [
      [{ monday: [{ open: '09:00', close: '17:00' }] }, /opening_hours/],
      [{ mon: [{ open: '9am', close: '17:00' }] }, /opening_hours\.mon\.0\.open/],
      [{ mon: [{ open: '09:00', close: '24:30' }] }, /opening_hours\.mon\.0\.close/],
      [{ mon: [{ open: '09:00' }] }, /close/],
      [{ mon: { open: '09:00', close: '17:00' } }, /opening_hours\.mon/],
      [{ tue: [{ open: '10:00', close: '10:00' }] }, /opening_hours\.tue: open and close cannot both be 10:00/],
      [
        {
          wed: [
            { open: '15:00', close: '20:00' },
            { open: '10:00', close: '16:00' },
          ],
        },
        /opening_hours: wed 10:00–16:00 overlaps wed 15:00–20:00/,
      ],
      [
        {
          sat: [
            { open: '20:00', close: '04:00' },
            { open: '23:00', close: '23:30' },
          ],
        },
        /opening_hours: sat 20:00–04:00 overlaps sat 23:00–23:30/,
      ],
      [
        { fri: [{ open: '20:00', close: '04:00' }], sat: [{ open: '02:00', close: '09:00' }] },
        /opening_hours: fri 20:00–04:00 overlaps sat 02:00–09:00/,
      ],
      [
        { sun: [{ open: '22:00', close: '02:00' }], mon: [{ open: '01:00', close: '05:00' }] },
        /opening_hours: sun 22:00–02:00 overlaps mon 01:00–05:00/,
      ],
      ['all day', /opening_hours/],
    ];
    for (const [opening_hours, message] of bad) {
      const res = await http.put(`/api/my-venues/${id}`, op, { opening_hours });
      expect(res.statusCode, JSON.stringify(opening_hours)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    const good = {
      mon: [],
      fri: [{ open: '20:00', close: '04:00' }],
      sat: [
        { open: '04:00', close: '14:00' },
        { open: '18:00', close: '02:00' },
      ],
      sun: [{ open: '10:00', close: '23:59' }],
    };
    expect((await http.put(`/api/my-venues/${id}`, op, { opening_hours: good })).statusCode).toBe(200);
    expect((await readVenue(t, op, id)).opening_hours).toEqual(good);
  });

  it('validates every bounded field', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ members_only: 3 }, /members_only/],
      [{ members_only: -1 }, /members_only/],
      [{ members_only: 1.5 }, /members_only/],
      [{ max_plus_ones: -1 }, /max_plus_ones/],
      [{ backdoor_capacity: 'lots' }, /backdoor_capacity/],
      [{ queue_skip_price: -1 }, /queue_skip_price/],
      [{ last_entry_time: '25:00' }, /last_entry_time/],
      [{ email: 'not-an-email' }, /email/],
      [{ marketing_reply_to: 'nope' }, /marketing_reply_to/],
      [{ website: 'copper.test' }, /website/],
      [{ twitter_url: 'ftp://x' }, /twitter_url/],
      [{ instagram_url: 'javascript:alert(1)' }, /instagram_url/],
      [{ venue_type: 'Big Bar!' }, /venue_type/],
      [{ booking_cutoff_unit: 'fortnights' }, /booking_cutoff_unit/],
      [{ default_booking_duration: 0 }, /default_booking_duration/],
      [{ check_in_window_minutes: -1 }, /check_in_window_minutes/],
      [{ check_in_window_minutes: 1441 }, /check_in_window_minutes/],
      [{ default_party_min: 0 }, /default_party_min/],
      [{ default_party_min: 12 }, /default_party_min cannot exceed default_party_max/],
      [{ default_party_min: 6, default_party_max: 4 }, /default_party_min cannot exceed default_party_max/],
      [{ guest_list_enabled: 'yes' }, /guest_list_enabled/],
      [{ name: '' }, /name/],
      [{ name: null }, /name/],
      [{ address: null }, /address/],
      [{ timezone: 'Mars/Olympus_Mons' }, /timezone "Mars\/Olympus_Mons" is not a valid IANA time zone/],
      [{ timezone: '' }, /timezone/],
      [{ booking_policy: 'bpol_abc' }, /booking_policy/],
      [{ booking_policy: 'Tables' }, /booking_policy/],
    ];
    for (const [payload, message] of bad) {
      const res = await http.put(`/api/my-venues/${id}`, op, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error, JSON.stringify(payload)).toMatch(message);
    }
    // Nothing of the refused requests was written.
    expect(await readVenue(t, op, id)).toMatchObject({
      members_only: 0,
      default_party_min: 1,
      default_party_max: 10,
      timezone: 'Europe/London',
      name: 'Test Venue',
    });
  });

  it('names the default booking policy among the venue’s three, and clears it with null or an empty string', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    for (const kind of ['tables', 'guest_list', 'events']) {
      expect((await http.put(`/api/my-venues/${id}`, op, { booking_policy: kind })).statusCode).toBe(200);
      expect((await readVenue(t, op, id)).booking_policy).toBe(kind);
    }
    expect((await http.put(`/api/my-venues/${id}`, op, { booking_policy: '' })).statusCode).toBe(200);
    expect((await readVenue(t, op, id)).booking_policy).toBeNull();
    await http.put(`/api/my-venues/${id}`, op, { booking_policy: 'events' });
    expect((await http.put(`/api/my-venues/${id}`, op, { booking_policy: null })).statusCode).toBe(200);
    expect((await readVenue(t, op, id)).booking_policy).toBeNull();
  });

  it('sets the IANA timezone', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    expect((await http.put(`/api/my-venues/${id}`, op, { timezone: 'America/New_York' })).statusCode).toBe(200);
    expect((await readVenue(t, op, id)).timezone).toBe('America/New_York');
  });

  it('does not write status, listing or image fields', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    const res = await http.put(`/api/my-venues/${id}`, op, {
      status: 'draft',
      app_listing_status: 'approved',
      logo_url: 'http://x/y.png',
      cover_image_url: 'http://x/z.png',
      description: 'ok',
    });
    expect(res.statusCode).toBe(200);
    expect(await readVenue(t, op, id)).toMatchObject({
      status: 'live',
      app_listing_status: 'pending',
      logo_url: null,
      cover_image_url: null,
      description: 'ok',
    });
  });

  it('answers 401, 403 without write, 404 for another account and for a venue outside the role scope', async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId);
    expect((await http.put(`/api/my-venues/${mine}`, null, { name: 'X' })).statusCode).toBe(401);
    const reader = await createStaff(t, op, { 'venues.settings': 'read' });
    expect((await http.put(`/api/my-venues/${mine}`, reader, { name: 'X' })).statusCode).toBe(403);
    const cross = await http.put(`/api/my-venues/${theirs}`, op, { name: 'Hijacked' });
    expect(cross.statusCode).toBe(404);
    expect(cross.json()).toEqual({ request_id: expect.any(String), error: 'Venue not found' });
    expect((await http.put('/api/my-venues/ven_nope', op, { name: 'X' })).statusCode).toBe(404);
    const scoped = await createStaff(t, op, { 'venues.settings': 'write' }, [mine]);
    expect((await http.put(`/api/my-venues/${second}`, scoped, { name: 'X' })).statusCode).toBe(404);
    expect((await http.put(`/api/my-venues/${mine}`, scoped, { name: 'Scoped edit' })).statusCode).toBe(200);
    expect((await readVenue(t, other, theirs)).name).toBe('Test Venue');
  });
});

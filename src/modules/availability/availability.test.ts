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
  type VenueApi,
} from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A payment policy row of the profiles module's table (its own tests cover its routes). */
const insertPaymentPolicy = (venueId: string, name = 'Deposit') => insertVenueRow(t, 'payment_policies', venueId, { name }, 'pp');

const expectBadRequest = async (res: Awaited<ReturnType<VenueApi['post']>>, label: string) => {
  expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
  expect(res.json().error, label).toEqual(expect.any(String));
};

describe('time periods', () => {
  it('creates, lists by start time, updates the fields sent and deletes', async () => {
    const { api: v } = await setupVenue(t);
    const dinner = expectCreated(await v.post('/time-periods', { name: 'Dinner', time_from: '18:00', time_to: '23:00' }));
    const late = expectCreated(await v.post('/time-periods', { name: 'Late', time_from: '22:00', time_to: '02:00' }));
    const lunch = expectCreated(await v.post('/time-periods', { name: 'Lunch', time_from: '12:00', time_to: '15:00' }));
    expect((await v.get('/time-periods')).json()).toEqual({
      data: [
        { id: lunch, name: 'Lunch', time_from: '12:00', time_to: '15:00' },
        { id: dinner, name: 'Dinner', time_from: '18:00', time_to: '23:00' },
        { id: late, name: 'Late', time_from: '22:00', time_to: '02:00' },
      ],
    });

    expect((await v.put(`/time-periods/${dinner}`, { name: 'Supper' })).json()).toEqual({ success: true });
    await v.put(`/time-periods/${lunch}`, { time_to: '16:30' });
    const rows = (await v.get('/time-periods')).json().data;
    expect(rows).toContainEqual({ id: dinner, name: 'Supper', time_from: '18:00', time_to: '23:00' });
    expect(rows).toContainEqual({ id: lunch, name: 'Lunch', time_from: '12:00', time_to: '16:30' });

    expect((await v.del(`/time-periods/${late}`)).json()).toEqual({ success: true });
    expect((await v.get('/time-periods')).json().data.map((r: any) => r.id)).toEqual([lunch, dinner]);
    expect((await v.del(`/time-periods/${late}`)).statusCode).toBe(404);
    expect((await v.put(`/time-periods/${late}`, { name: 'x' })).statusCode).toBe(404);
  });

  it('validates', async () => {
    const { api: v } = await setupVenue(t);
    const id = expectCreated(await v.post('/time-periods', { name: 'Dinner', time_from: '18:00', time_to: '23:00' }));
    for (const body of [
      { time_from: '18:00', time_to: '23:00' },
      { name: ' ', time_from: '18:00', time_to: '23:00' },
      { name: 'x', time_to: '23:00' },
      { name: 'x', time_from: '18:00' },
      { name: 'x', time_from: '7pm', time_to: '23:00' },
      { name: 'x', time_from: '24:00', time_to: '23:00' },
      { name: 'x', time_from: '18:00', time_to: '18:00' },
    ]) {
      await expectBadRequest(await v.post('/time-periods', body), JSON.stringify(body));
    }
    await expectBadRequest(await v.put(`/time-periods/${id}`, { time_to: '18:00' }), 'equal times on update');
    await expectBadRequest(await v.put(`/time-periods/${id}`, { name: '' }), 'empty name on update');
    expect((await v.get('/time-periods')).json().data).toEqual([{ id, name: 'Dinner', time_from: '18:00', time_to: '23:00' }]);
  });

  it('deleting a period unlinks the shifts that used it', async () => {
    const { api: v } = await setupVenue(t);
    const period = expectCreated(await v.post('/time-periods', { name: 'Dinner', time_from: '18:00', time_to: '23:00' }));
    expectCreated(await v.post('/shifts', { name: 'Fri dinner', days_of_week: ['fri'], time_type: 'custom', time_period_id: period }));
    await v.del(`/time-periods/${period}`);
    expect((await v.get('/shifts')).json().data[0].time_period_id).toBeNull();
  });
});

describe('shifts', () => {
  it('creates with name and days only; every other field takes its default', async () => {
    const { api: v } = await setupVenue(t, { default_party_min: 2, default_party_max: 8 });
    const id = expectCreated(await v.post('/shifts', { name: 'Weekend', days_of_week: ['sat', 'fri', 'sat'] }));
    expect((await v.get('/shifts')).json().data).toEqual([
      {
        id,
        name: 'Weekend',
        days_of_week: ['fri', 'sat'],
        time_type: 'default',
        time_period_id: null,
        time_from: null,
        time_to: null,
        schedule_start: null,
        schedule_end: null,
        party_size_min: 2,
        party_size_max: 8,
        seating_area_ids: [],
        table_ids: [],
        duration_type: 'default',
        duration_minutes: null,
        payment_policy_id: null,
      },
    ]);
  });

  it('round-trips every field and PUT re-sends the field set', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const period = expectCreated(await v.post('/time-periods', { name: 'Dinner', time_from: '18:00', time_to: '23:00' }));
    const area = (await v.post('/seating-areas', { name: 'Terrace' })).json().id;
    const table = (await v.post('/tables', { table_number: '4' })).json().id;
    const policy = await insertPaymentPolicy(venueId);
    const body = {
      name: 'Summer dinners',
      days_of_week: ['thu', 'fri', 'sat'],
      time_type: 'custom',
      time_period_id: period,
      time_from: '18:30',
      time_to: '22:30',
      schedule_start: '2026-06-01',
      schedule_end: '2026-08-31',
      party_size_min: 2,
      party_size_max: 6,
      seating_area_ids: [area],
      table_ids: [table],
      duration_type: 'custom',
      duration_minutes: 150,
      payment_policy_id: policy,
    };
    const id = expectCreated(await v.post('/shifts', body));
    expect((await v.get('/shifts')).json().data).toEqual([{ id, ...body }]);

    const changed = {
      ...body,
      name: 'Late summer',
      days_of_week: ['sun'],
      time_type: 'default',
      time_period_id: null,
      party_size_max: 12,
      duration_minutes: 90,
    };
    expect((await v.put(`/shifts/${id}`, changed)).json()).toEqual({ success: true });
    expect((await v.get('/shifts')).json().data).toEqual([{ id, ...changed }]);

    // Fields left out of a PUT return to their defaults; days_of_week, which has none, is kept.
    expect((await v.put(`/shifts/${id}`, { name: 'Bare' })).statusCode).toBe(200);
    expect((await v.get('/shifts')).json().data[0]).toEqual({
      id,
      name: 'Bare',
      days_of_week: ['sun'],
      time_type: 'default',
      time_period_id: null,
      time_from: null,
      time_to: null,
      schedule_start: null,
      schedule_end: null,
      party_size_min: 1,
      party_size_max: 10,
      seating_area_ids: [],
      table_ids: [],
      duration_type: 'default',
      duration_minutes: null,
      payment_policy_id: null,
    });

    expect((await v.del(`/shifts/${id}`)).json()).toEqual({ success: true });
    expect((await v.get('/shifts')).json().data).toEqual([]);
    expect((await v.del(`/shifts/${id}`)).statusCode).toBe(404);
    expect((await v.put(`/shifts/${id}`, { name: 'x' })).statusCode).toBe(404);
  });

  it('validates fields and references', async () => {
    const { op, api: v } = await setupVenue(t);
    const otherVenueId = await insertVenue(t, op.operatorId);
    const other = venueApi(t, op.headers, otherVenueId);
    const theirPeriod = (await other.post('/time-periods', { name: 'P', time_from: '10:00', time_to: '11:00' })).json().id;
    const theirArea = (await other.post('/seating-areas', { name: 'A' })).json().id;
    const theirTable = (await other.post('/tables', { table_number: '1' })).json().id;
    const theirPolicy = await insertPaymentPolicy(otherVenueId);
    const days = ['fri'];
    for (const [label, body] of [
      ['no name', { days_of_week: days }],
      ['blank name', { name: '  ', days_of_week: days }],
      ['no days', { name: 'x' }],
      ['empty days', { name: 'x', days_of_week: [] }],
      ['capitalised day', { name: 'x', days_of_week: ['Fri'] }],
      ['long day', { name: 'x', days_of_week: ['friday'] }],
      ['days not a list', { name: 'x', days_of_week: 'fri' }],
      ['unknown time_type', { name: 'x', days_of_week: days, time_type: 'sometimes' }],
      ['custom without a window', { name: 'x', days_of_week: days, time_type: 'custom' }],
      ['half a window', { name: 'x', days_of_week: days, time_from: '18:00' }],
      ['empty window', { name: 'x', days_of_week: days, time_from: '18:00', time_to: '18:00' }],
      ['bad clock time', { name: 'x', days_of_week: days, time_from: '18:00', time_to: '25:00' }],
      ['bad schedule date', { name: 'x', days_of_week: days, schedule_start: '2026-02-30' }],
      ['schedule ends first', { name: 'x', days_of_week: days, schedule_start: '2026-06-10', schedule_end: '2026-06-01' }],
      ['party min above max', { name: 'x', days_of_week: days, party_size_min: 6, party_size_max: 2 }],
      ['party size zero', { name: 'x', days_of_week: days, party_size_min: 0 }],
      ['unknown duration_type', { name: 'x', days_of_week: days, duration_type: 'long' }],
      ['custom duration without minutes', { name: 'x', days_of_week: days, duration_type: 'custom' }],
      ['zero minutes', { name: 'x', days_of_week: days, duration_minutes: 0 }],
      ['period of another venue', { name: 'x', days_of_week: days, time_period_id: theirPeriod }],
      ['unknown period', { name: 'x', days_of_week: days, time_period_id: 'tp_nope' }],
      ['area of another venue', { name: 'x', days_of_week: days, seating_area_ids: [theirArea] }],
      ['table of another venue', { name: 'x', days_of_week: days, table_ids: [theirTable] }],
      ['policy of another venue', { name: 'x', days_of_week: days, payment_policy_id: theirPolicy }],
      ['unknown policy', { name: 'x', days_of_week: days, payment_policy_id: 'pp_nope' }],
    ] as const) {
      await expectBadRequest(await v.post('/shifts', body), label);
    }
    expect((await v.get('/shifts')).json().data).toEqual([]);
    const id = expectCreated(await v.post('/shifts', { name: 'ok', days_of_week: days }));
    await expectBadRequest(await v.put(`/shifts/${id}`, { days_of_week: days }), 'PUT without name');
    await expectBadRequest(await v.put(`/shifts/${id}`, { name: 'x', days_of_week: [] }), 'PUT with empty days');
    expect((await v.get('/shifts')).json().data[0].name).toBe('ok');
  });
});

describe('blackouts', () => {
  it('creates with defaults, round-trips every field, replaces on PUT and deletes', async () => {
    const { api: v } = await setupVenue(t);
    const christmas = expectCreated(await v.post('/blackouts', { date_from: '2026-12-24', date_to: '2026-12-26' }));
    const body = {
      date_from: '2026-08-01',
      date_to: '2026-08-01',
      description: 'Private hire',
      affects_guestlist: false,
      affects_events: 0,
      affects_reservations: true,
    };
    const hire = expectCreated(await v.post('/blackouts', body));
    expect((await v.get('/blackouts')).json().data).toEqual([
      {
        id: hire,
        date_from: '2026-08-01',
        date_to: '2026-08-01',
        description: 'Private hire',
        affects_guestlist: false,
        affects_events: false,
        affects_reservations: true,
      },
      {
        id: christmas,
        date_from: '2026-12-24',
        date_to: '2026-12-26',
        description: null,
        affects_guestlist: true,
        affects_events: true,
        affects_reservations: true,
      },
    ]);

    expect((await v.put(`/blackouts/${hire}`, { date_from: '2026-08-02', date_to: '2026-08-03', affects_reservations: 0 })).json()).toEqual(
      { success: true },
    );
    expect((await v.get('/blackouts')).json().data[0]).toEqual({
      id: hire,
      date_from: '2026-08-02',
      date_to: '2026-08-03',
      description: null,
      affects_guestlist: true,
      affects_events: true,
      affects_reservations: false,
    });

    expect((await v.del(`/blackouts/${christmas}`)).json()).toEqual({ success: true });
    expect((await v.get('/blackouts')).json().data.map((b: any) => b.id)).toEqual([hire]);
  });

  it('answers 404 when the id does not match', async () => {
    const { op, api: v } = await setupVenue(t);
    const theirs = expectCreated(
      await venueApi(t, op.headers, await insertVenue(t, op.operatorId)).post('/blackouts', {
        date_from: '2026-01-01',
        date_to: '2026-01-02',
      }),
    );
    for (const id of ['blk_nope', theirs]) {
      expect((await v.put(`/blackouts/${id}`, { date_from: '2026-01-01', date_to: '2026-01-02' })).statusCode).toBe(404);
      expect((await v.del(`/blackouts/${id}`)).statusCode).toBe(404);
    }
  });

  it('validates', async () => {
    const { api: v } = await setupVenue(t);
    const id = expectCreated(await v.post('/blackouts', { date_from: '2026-01-01', date_to: '2026-01-02' }));
    for (const body of [
      { date_to: '2026-01-02' },
      { date_from: '2026-01-01' },
      { date_from: '01/01/2026', date_to: '2026-01-02' },
      { date_from: '2026-02-30', date_to: '2026-03-02' },
      { date_from: '2026-01-05', date_to: '2026-01-02' },
      { date_from: '2026-01-01', date_to: '2026-01-02', affects_events: 'yes' },
    ]) {
      await expectBadRequest(await v.post('/blackouts', body), JSON.stringify(body));
    }
    await expectBadRequest(await v.put(`/blackouts/${id}`, { date_from: '2026-01-01' }), 'PUT without date_to');
    await expectBadRequest(await v.put(`/blackouts/${id}`, { date_from: '2026-01-03', date_to: '2026-01-02' }), 'PUT ending first');
    expect((await v.get('/blackouts')).json().data).toHaveLength(1);
  });
});

describe('access control', () => {
  it('401 without a session, 403 without the permission, read-only staff can read', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    expectCreated(await v.post('/time-periods', { name: 'P', time_from: '10:00', time_to: '11:00' }));
    const anonymous = venueApi(t, {}, venueId);
    expect((await anonymous.get('/shifts')).statusCode).toBe(401);
    expect((await anonymous.post('/blackouts', { date_from: '2026-01-01', date_to: '2026-01-01' })).statusCode).toBe(401);

    const reader = venueApi(t, (await createStaff(t, op, { availability: 'read' })).headers, venueId);
    for (const path of ['/time-periods', '/shifts', '/access-rules', '/blackouts'])
      expect((await reader.get(path)).statusCode, path).toBe(200);
    for (const [path, body] of [
      ['/time-periods', { name: 'P', time_from: '10:00', time_to: '11:00' }],
      ['/shifts', { name: 'S', days_of_week: ['fri'] }],
      ['/access-rules', { name: 'R' }],
      ['/blackouts', { date_from: '2026-01-01', date_to: '2026-01-01' }],
    ] as const) {
      expect((await reader.post(path, body)).statusCode, path).toBe(403);
    }
    const tablesOnly = venueApi(t, (await createStaff(t, op, { tables: 'write' })).headers, venueId);
    expect((await tablesOnly.get('/shifts')).statusCode).toBe(403);
    expect((await v.get('/time-periods')).json().data).toHaveLength(1);
  });

  it('404 for another operator’s venue, and for periods, shifts and blackouts of another venue', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    const other = await createOperator(t);
    expect((await venueApi(t, other.headers, venueId).get('/time-periods')).statusCode).toBe(404);
    expect((await venueApi(t, other.headers, venueId).post('/shifts', { name: 'S', days_of_week: ['fri'] })).statusCode).toBe(404);

    const o = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    const period = expectCreated(await o.post('/time-periods', { name: 'P', time_from: '10:00', time_to: '11:00' }));
    const shift = expectCreated(await o.post('/shifts', { name: 'S', days_of_week: ['fri'] }));
    for (const res of [
      await v.put(`/time-periods/${period}`, { name: 'mine' }),
      await v.del(`/time-periods/${period}`),
      await v.put(`/shifts/${shift}`, { name: 'mine', days_of_week: ['mon'] }),
      await v.del(`/shifts/${shift}`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await o.get('/time-periods')).json().data[0].name).toBe('P');
    expect((await o.get('/shifts')).json().data[0]).toMatchObject({ name: 'S', days_of_week: ['fri'] });
    expect((await v.get('/time-periods')).json().data).toEqual([]);
    expect((await v.get('/shifts')).json().data).toEqual([]);
    expect((await v.get('/shifts')).statusCode).toBe(200);
  });
});

describe('another operator', () => {
  it('gets 404 on every availability route of this venue, and nothing changes', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const period = expectCreated(await v.post('/time-periods', { name: 'P', time_from: '10:00', time_to: '11:00' }));
    const shift = expectCreated(await v.post('/shifts', { name: 'S', days_of_week: ['fri'] }));
    const rule = expectCreated(await v.post('/access-rules', { name: 'R' }));
    const blackout = expectCreated(await v.post('/blackouts', { date_from: '2026-01-01', date_to: '2026-01-02' }));
    const snapshot = async () =>
      Promise.all(['/time-periods', '/shifts', '/access-rules', '/blackouts'].map(async (path) => (await v.get(path)).json()));
    const before = await snapshot();

    const stranger = venueApi(t, (await createOperator(t, 'Rival')).headers, venueId);
    const attempts: [keyof VenueApi, string, object?][] = [
      ['get', '/time-periods'],
      ['post', '/time-periods', { name: 'X', time_from: '10:00', time_to: '11:00' }],
      ['put', `/time-periods/${period}`, { name: 'X' }],
      ['del', `/time-periods/${period}`],
      ['get', '/shifts'],
      ['post', '/shifts', { name: 'X', days_of_week: ['mon'] }],
      ['put', `/shifts/${shift}`, { name: 'X', days_of_week: ['mon'] }],
      ['del', `/shifts/${shift}`],
      ['get', '/access-rules'],
      ['post', '/access-rules', { name: 'X' }],
      ['put', `/access-rules/${rule}`, { name: 'X' }],
      ['del', `/access-rules/${rule}`],
      ['post', `/access-rules/${rule}/image`, { data: 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7' }],
      ['get', '/blackouts'],
      ['post', '/blackouts', { date_from: '2026-02-01', date_to: '2026-02-02' }],
      ['put', `/blackouts/${blackout}`, { date_from: '2026-02-01', date_to: '2026-02-02' }],
      ['del', `/blackouts/${blackout}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await (stranger[method] as (p: string, b?: object) => ReturnType<VenueApi['get']>)(path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().error, `${method} ${path}`).toEqual(expect.any(String));
    }
    expect(await snapshot()).toEqual(before);
  });

  it('gets 404 for this operator’s period, shift, rule and blackout ids on its own venue', async () => {
    const { api: v } = await setupVenue(t);
    const period = expectCreated(await v.post('/time-periods', { name: 'P', time_from: '10:00', time_to: '11:00' }));
    const shift = expectCreated(await v.post('/shifts', { name: 'S', days_of_week: ['fri'] }));
    const rule = expectCreated(await v.post('/access-rules', { name: 'R' }));
    const blackout = expectCreated(await v.post('/blackouts', { date_from: '2026-01-01', date_to: '2026-01-02' }));
    const { api: o } = await setupVenue(t);
    for (const [method, path, body] of [
      ['put', `/time-periods/${period}`, { name: 'X' }],
      ['del', `/time-periods/${period}`],
      ['put', `/shifts/${shift}`, { name: 'X', days_of_week: ['mon'] }],
      ['del', `/shifts/${shift}`],
      ['put', `/access-rules/${rule}`, { name: 'X' }],
      ['del', `/access-rules/${rule}`],
      ['post', `/access-rules/${rule}/image`, { data: 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7' }],
      ['put', `/blackouts/${blackout}`, { date_from: '2026-02-01', date_to: '2026-02-02' }],
      ['del', `/blackouts/${blackout}`],
    ] as [keyof VenueApi, string, object?][]) {
      const res = await (o[method] as (p: string, b?: object) => ReturnType<VenueApi['get']>)(path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    // A shift of the other operator may not point at this operator's period either.
    await expectBadRequest(
      await o.post('/shifts', { name: 'X', days_of_week: ['mon'], time_type: 'custom', time_period_id: period }),
      'foreign period',
    );
    expect((await v.get('/time-periods')).json().data).toEqual([{ id: period, name: 'P', time_from: '10:00', time_to: '11:00' }]);
    expect((await v.get('/shifts')).json().data.map((row: any) => row.name)).toEqual(['S']);
    expect((await v.get('/access-rules')).json().data.map((row: any) => [row.name, row.display_image_url])).toEqual([['R', null]]);
    expect((await v.get('/blackouts')).json().data.map((row: any) => row.date_from)).toEqual(['2026-01-01']);
  });
});

describe('list order', () => {
  it('is natural and case-aware by name (the same on both engines); periods by start time first; blackouts by dates', async () => {
    const { api: v } = await setupVenue(t);
    const names = ['bar', 'Zen', 'Bar', 'balcony', 'Atrium', 'Room 10', 'Room 2'];
    const sortedNames = ['Atrium', 'balcony', 'bar', 'Bar', 'Room 2', 'Room 10', 'Zen'];
    for (const name of names) expectCreated(await v.post('/shifts', { name, days_of_week: ['fri'] }));
    expect((await v.get('/shifts')).json().data.map((row: any) => row.name)).toEqual(sortedNames);
    for (const name of names) expectCreated(await v.post('/access-rules', { name }));
    expect((await v.get('/access-rules')).json().data.map((row: any) => row.name)).toEqual(sortedNames);
    for (const name of names) expectCreated(await v.post('/time-periods', { name, time_from: '18:00', time_to: '23:00' }));
    expectCreated(await v.post('/time-periods', { name: 'zz early', time_from: '09:00', time_to: '11:00' }));
    expect((await v.get('/time-periods')).json().data.map((row: any) => row.name)).toEqual(['zz early', ...sortedNames]);
    for (const [from, to] of [
      ['2026-12-24', '2026-12-26'],
      ['2026-08-01', '2026-08-03'],
      ['2026-08-01', '2026-08-01'],
    ]) {
      expectCreated(await v.post('/blackouts', { date_from: from, date_to: to }));
    }
    expect((await v.get('/blackouts')).json().data.map((row: any) => `${row.date_from}/${row.date_to}`)).toEqual([
      '2026-08-01/2026-08-01',
      '2026-08-01/2026-08-03',
      '2026-12-24/2026-12-26',
    ]);
  });
});

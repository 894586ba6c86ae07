/**
 * The guest's journey on the demo venue (issue: the guest's journey, polished), through HTTP on both
 * engines: the public floorplan offers exactly the tables booking would give (the Dinner rule lets
 * guests pick Terrace tables only), and each reason a slot cannot be booked answers in its own words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../../demo/demo.js';
import { createOperatorAccount } from '../../team/index.js';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';

let t: TestApp;
let venueId: string;
let dinner: { id: string; rule_type: string };
const DATE = '2026-06-17';

let guests = 0;
/** A booking under the Dinner rule by a new guest from a new address (deposits wait unpaid: one guest holds few). */
const book = (body: Record<string, unknown>) => {
  guests += 1;
  return t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    remoteAddress: `203.0.113.${guests}`,
    payload: {
      access_rule_id: dinner.id,
      rule_type: 'table',
      date: DATE,
      guest_name: `Guest ${guests}`,
      guest_email: `guest${guests}@example.test`,
      ...body,
    },
  });
};

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  const demo = await runDemo(t.app, (input) => createOperatorAccount(t.db, input, t.clock.now()), t.ctx);
  venueId = demo.venue_id;
  const day = (await t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=${DATE}&party_size=4&type=tables` })).json();
  dinner = day.rules.find((r: { name: string }) => r.name === 'Dinner tables');
});
afterAll(async () => t.close());

interface PlanTable {
  id: string;
  table_number: string;
  seating_area_id: string | null;
  available: boolean;
}
const floorplan = async (time: string, party = 4) =>
  (
    await t.app.inject({
      url: `/api/public/venues/${venueId}/floorplan?date=${DATE}&time=${time}&party_size=${party}&rule_id=${dinner.id}`,
    })
  ).json() as {
    tables: PlanTable[];
  };

describe('the floorplan and booking agree', () => {
  it('offers only the tables booking accepts as the guest’s pick; the others answer 409', async () => {
    const plan = await floorplan('20:30');
    const free = plan.tables.filter((table) => table.available);
    const terraceArea = plan.tables.find((table) => table.table_number === '20')!.seating_area_id;
    expect(free.length).toBeGreaterThan(0);
    expect(free.every((table) => table.seating_area_id === terraceArea)).toBe(true);
    const six = plan.tables.find((table) => table.table_number === '6')!;
    expect(six.available).toBe(false);
    const refused = await book({ time: '20:30', party_size: 4, table_id: six.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      request_id: expect.any(String),
      error: 'Table 6 is not free at that time: please choose another table.',
      reason: 'table_taken',
    });
    const picked = await book({ time: '20:30', party_size: 4, table_id: free[0].id });
    expect(picked.statusCode).toBe(200);
    expect((await floorplan('20:30')).tables.find((table) => table.id === free[0].id)!.available).toBe(false);
  });

  it('takes a time off the availability when the rule’s own tables are full, though other rooms are free', async () => {
    // Fill every Terrace table at 21:00 (six of four, two of six): the Main room stays empty.
    for (const table of (await floorplan('21:00')).tables.filter((table) => table.available)) {
      expect((await book({ time: '21:00', party_size: 4, table_id: table.id })).statusCode).toBe(200);
    }
    const day = (await t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=${DATE}&party_size=4&type=tables` })).json();
    const nine = day.slots.find(
      (slot: { time: string; access_rule_id: string }) => slot.time === '21:00' && slot.access_rule_id === dinner.id,
    );
    expect(nine.available).toBe(false);
    expect((await floorplan('21:00')).tables.filter((table) => table.available)).toEqual([]);
    const any = await book({ time: '21:00', party_size: 4 });
    expect(any.statusCode).toBe(409);
    expect(any.json()).toMatchObject({ error: 'That time is no longer available', reason: 'no_table' });
  });
});

describe('each refusal in its own words', () => {
  it('a party too large for the venue: call us, with the largest party taken online', async () => {
    const res = await book({ time: '20:00', party_size: 500 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: 'We cannot take a party of 500 online (at most 10): please call us to book.',
      reason: 'party_size',
      max_party_size: 10,
    });
  });

  it('a date beyond the booking horizon: from when bookings open', async () => {
    const res = await book({ date: '2028-03-01', time: '20:00', party_size: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: 'Bookings for Wednesday, 1 March 2028 open on Saturday, 1 January 2028 at 20:00.',
      reason: 'horizon',
      opens_at: '2028-01-01T20:00:00.000Z',
    });
  });

  it('a time off the grid: the nearest bookable times', async () => {
    const res = await book({ time: '19:07', party_size: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: '19:07 is not a time we take bookings for: the nearest are 19:00 and 19:15.',
      reason: 'not_a_slot',
      nearest_times: ['19:00', '19:15'],
    });
  });
});

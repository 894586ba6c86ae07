/**
 * What other modules read from bookings, with bookings the engine made (public and staff flows, not
 * inserted rows): tables' `is_taken`, the venue stats, the dashboard's guest count, and the refusal to
 * put a venue with upcoming reservations back to draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp, type TestOperator } from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { bookPublicly, insertTable } from './bookings.test-support.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let tableA: string;
let tableB: string;
let publicId: string;
let staffId: string;
const FRIDAY = '2026-06-19';

beforeAll(async () => {
  t = await createTestApp();
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  const rule = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
  tableA = await insertTable(t, venueId, { table_number: 'A', capacity: 2 });
  tableB = await insertTable(t, venueId, { table_number: 'B', capacity: 4 });
  const booked = await bookPublicly(t, venueId, {
    access_rule_id: rule,
    date: FRIDAY,
    time: '19:00',
    party_size: 2,
    guest_name: 'Ann',
    guest_email: 'ann@example.test',
  });
  expect(booked.statusCode, booked.body).toBe(200);
  publicId = booked.json().booking_id;
  const staff = await t.app.inject({
    method: 'POST',
    url: `/api/my-venues/${venueId}/staff-bookings`,
    headers: op.headers,
    payload: { date: FRIDAY, time: '21:00', party_size: 3, guest_name: 'Bo', guest_email: 'bo@example.test' },
  });
  expect(staff.statusCode, staff.body).toBe(200);
  staffId = staff.json().id;
});
afterAll(async () => t.close());

describe('reads of engine-made bookings', () => {
  it('tables report is_taken for the stay each booking holds', async () => {
    const at = async (time: string) => {
      const res = await t.app.inject({
        url: `/api/my-venues/${venueId}/tables?date=${FRIDAY}&time=${time}&duration=60`,
        headers: op.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return Object.fromEntries(res.json().data.map((row: { id: string; is_taken: boolean }) => [row.id, row.is_taken]));
    };
    expect(await at('19:30')).toEqual({ [tableA]: true, [tableB]: false });
    expect(await at('21:30')).toEqual({ [tableA]: false, [tableB]: true });
    expect(await at('18:00')).toEqual({ [tableA]: false, [tableB]: false });
  });

  it('venue stats and the dashboard count them', async () => {
    const stats = await t.app.inject({ url: `/api/my-venues/${venueId}/stats`, headers: op.headers });
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().bookings).toMatchObject({ total: 2 });
    expect(stats.json().unique_guests).toBe(2);
    const dashboard = await t.app.inject({ url: '/api/client/dashboard', headers: op.headers });
    expect(dashboard.json().stats.total_guests).toBe(2);
  });

  it('a venue with upcoming reservations cannot go back to draft; once they are cancelled it can', async () => {
    const toDraft = () =>
      t.app.inject({ method: 'PUT', url: `/api/my-venues/${venueId}/status`, headers: op.headers, payload: { status: 'draft' } });
    expect((await toDraft()).statusCode).toBe(409);
    for (const id of [publicId, staffId]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/bookings/${id}/staff-cancel`, headers: op.headers, payload: {} });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await toDraft();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'draft' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  setupVenue,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';
import { cancellationOutcome } from '../../domain/payment-policy.js';
import { loadPaymentPolicy } from './policies.service.js';
import { insertAccessRule, insertShift, readRow } from '../../../test/helpers/rows.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let api: VenueApi;

beforeAll(async () => {
  t = await createTestApp();
  ({ op, venueId, api } = await setupVenue(t));
});
afterAll(async () => t.close());

describe('booking policies', () => {
  it('reads three empty strings before anything is saved', async () => {
    const fresh = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    const res = await fresh.get('/booking-policies');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tables: '', guest_list: '', events: '' });
  });

  it('saves the strings, keeps those not sent, and clears with an empty string', async () => {
    const put = await api.put('/booking-policies', {
      tables: 'Tables are held 15 minutes.',
      guest_list: 'Arrive by 23:00.',
      events: 'No refunds.',
    });
    expect(put.json()).toEqual({ success: true });
    expect((await api.get('/booking-policies')).json()).toEqual({
      tables: 'Tables are held 15 minutes.',
      guest_list: 'Arrive by 23:00.',
      events: 'No refunds.',
    });

    expect((await api.put('/booking-policies', { events: '' })).statusCode).toBe(200);
    expect((await api.get('/booking-policies')).json()).toEqual({
      tables: 'Tables are held 15 minutes.',
      guest_list: 'Arrive by 23:00.',
      events: '',
    });
  });

  it.each([[{ tables: 5 }], [{ guest_list: null }], [{ events: 'x'.repeat(20_001) }]])('refuses %j', async (body) => {
    const res = await api.put('/booking-policies', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/tables|guest_list|events/);
  });

  it('answers 401, 403 and 404', async () => {
    expect((await t.app.inject({ url: `/api/my-venues/${venueId}/booking-policies` })).statusCode).toBe(401);
    const reader = await createStaff(t, op, { profiles: 'read' });
    expect((await venueApi(t, reader.headers, venueId).get('/booking-policies')).statusCode).toBe(200);
    expect((await venueApi(t, reader.headers, venueId).put('/booking-policies', { tables: 'x' })).statusCode).toBe(403);
    const stranger = await createOperator(t, 'Stranger');
    expect((await venueApi(t, stranger.headers, venueId).get('/booking-policies')).statusCode).toBe(404);
  });
});

describe('payment policies', () => {
  const list = async (a = api) => (await a.get('/payment-policies')).json().data as Record<string, unknown>[];

  it('creates with the spec defaults and reads back', async () => {
    const res = await api.post('/payment-policies', { name: 'Default terms' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.any(String) });
    expect((await list()).find((p) => p.id === res.json().id)).toEqual({
      id: res.json().id,
      name: 'Default terms',
      deposit_type: 'none',
      refund_type: 'none',
      refund_percent: 100,
      cancel_type: 'anytime',
      cancel_cutoff_value: 24,
      cancel_cutoff_unit: 'hours',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      guest_terms: { deposit: null, cancellation: 'You can cancel at any time before your booking.' },
    });
  });

  it('creates with every field, updates only what is sent, and feeds the calculator', async () => {
    const body = {
      name: 'Card hold',
      deposit_type: 'hold',
      refund_type: 'partial',
      refund_percent: 50,
      cancel_type: 'cutoff',
      cancel_cutoff_value: 2,
      cancel_cutoff_unit: 'days',
    };
    const id = (await api.post('/payment-policies', body)).json().id;
    expect((await list()).find((p) => p.id === id)).toMatchObject(body);

    expect((await api.put(`/payment-policies/${id}`, { refund_percent: 25 })).json()).toEqual({ success: true });
    expect((await list()).find((p) => p.id === id)).toMatchObject({ ...body, refund_percent: 25 });
    expect((await list()).find((p) => p.id === id)?.guest_terms).toEqual({
      deposit: expect.stringMatching(/^Your card is authorised when you book/),
      cancellation: 'You can cancel up to 2 days before your booking, and you get 25% back; after that it cannot be cancelled.',
    });

    const policy = await loadPaymentPolicy(t.db.kysely, venueId, id);
    const booking = { date: '2026-07-20', time: '20:00', timezone: 'Europe/London' }; // 19:00Z; deadline 2026-07-18T19:00Z
    expect(cancellationOutcome(policy!, booking, new Date('2026-07-18T19:00:00Z'), 10_000)).toMatchObject({
      allowed: true,
      refund_pence: 2500,
    });
    expect(cancellationOutcome(policy!, booking, new Date('2026-07-18T19:00:01Z'), 10_000)).toMatchObject({
      allowed: false,
      refund_pence: 0,
    });
    expect(await loadPaymentPolicy(t.db.kysely, 'ven_other', id)).toBeUndefined();
  });

  it.each([
    [{}, /name/],
    [{ name: '' }, /name/],
    [{ name: '  ' }, /name/],
    [{ name: 'x', deposit_type: 'card' }, /deposit_type/],
    [{ name: 'x', refund_type: 'half' }, /refund_type/],
    [{ name: 'x', refund_percent: 101 }, /refund_percent/],
    [{ name: 'x', refund_percent: -1 }, /refund_percent/],
    [{ name: 'x', refund_percent: 12.5 }, /refund_percent/],
    [{ name: 'x', cancel_type: 'sometimes' }, /cancel_type/],
    [{ name: 'x', cancel_cutoff_value: -2 }, /cancel_cutoff_value/],
    [{ name: 'x', cancel_cutoff_unit: 'fortnights' }, /cancel_cutoff_unit/],
  ])('create %j → 400', async (body, message) => {
    const res = await api.post('/payment-policies', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('refuses invalid updates', async () => {
    const id = (await api.post('/payment-policies', { name: 'Valid' })).json().id;
    expect((await api.put(`/payment-policies/${id}`, { name: ' ' })).statusCode).toBe(400);
    expect((await api.put(`/payment-policies/${id}`, { cancel_type: 'maybe' })).statusCode).toBe(400);
    expect((await list()).find((p) => p.id === id)).toMatchObject({ name: 'Valid', cancel_type: 'anytime' });
  });

  it('deleting detaches it from access rules, shifts and profiles of the venue', async () => {
    const id = (await api.post('/payment-policies', { name: 'Going' })).json().id;
    const keep = (await api.post('/payment-policies', { name: 'Staying' })).json().id;
    const rule = await insertAccessRule(t, venueId, { payment_policy_id: id });
    const keptRule = await insertAccessRule(t, venueId, { payment_policy_id: keep });
    const shift = await insertShift(t, venueId, { payment_policy_id: id });
    const tableProfile = (await api.post('/table-profiles', { name: 'T', payment_policy_id: id })).json().id;
    const eventProfile = (await api.post('/event-profiles', { name: 'E', payment_policy_id: id })).json().id;

    expect((await api.del(`/payment-policies/${id}`)).json()).toEqual({ success: true });
    expect((await list()).map((p) => p.id)).not.toContain(id);
    expect(await readRow(t, 'access_rules', rule)).toMatchObject({ payment_policy_id: null });
    expect(await readRow(t, 'access_rules', keptRule)).toMatchObject({ payment_policy_id: keep });
    expect(await readRow(t, 'shifts', shift)).toMatchObject({ payment_policy_id: null });
    const tables = (await api.get('/table-profiles')).json().data as { id: string; payment_policy_id: string | null }[];
    expect(tables.find((p) => p.id === tableProfile)?.payment_policy_id).toBeNull();
    const events = (await api.get('/event-profiles')).json().data as { id: string; payment_policy_id: string | null }[];
    expect(events.find((p) => p.id === eventProfile)?.payment_policy_id).toBeNull();
    expect((await api.del(`/payment-policies/${id}`)).statusCode).toBe(404);
  });

  it('answers 401, 403 and 404 (another operator’s venue, another venue’s policy)', async () => {
    expect((await t.app.inject({ url: `/api/my-venues/${venueId}/payment-policies` })).statusCode).toBe(401);
    const reader = await createStaff(t, op, { profiles: 'read' });
    expect((await venueApi(t, reader.headers, venueId).get('/payment-policies')).statusCode).toBe(200);
    expect((await venueApi(t, reader.headers, venueId).post('/payment-policies', { name: 'x' })).statusCode).toBe(403);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    expect((await venueApi(t, op.headers, theirVenue).get('/payment-policies')).statusCode).toBe(404);
    const theirs = (await venueApi(t, stranger.headers, theirVenue).post('/payment-policies', { name: 'Theirs' })).json().id;
    expect((await api.put(`/payment-policies/${theirs}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await api.del(`/payment-policies/${theirs}`)).statusCode).toBe(404);
  });
});

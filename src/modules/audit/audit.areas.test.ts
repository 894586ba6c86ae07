/**
 * Every kind of operator mutation the audit log covers appears in it with its actor, driven through
 * the real endpoints: venue settings, availability, tables, roles, users, bookings, refunds, vouchers,
 * guest exports and erasures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { insertBooking } from '../bookings/core/bookings.test-support.js';
import { bookingOf, crm, guestUser } from '../guests/guests.test-support.js';
import { enableVouchers, issueComp, paidIntent } from '../vouchers/vouchers.test-support.js';
import { auditLog, lastEntry } from './audit.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const actorOf = (user: { userId: string; email: string }) =>
  expect.objectContaining({ type: 'user', user_id: user.userId, email: user.email });

describe('the audit log records', () => {
  it('venue settings and status', async () => {
    const { op, venueId } = await setupVenue(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/my-venues/${venueId}`,
      headers: op.headers,
      payload: { name: 'The Anchor' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const entry = await lastEntry(t, op.headers, 'venue.updated');
    expect(entry).toMatchObject({ entity_type: 'venue', entity_id: venueId, venue_id: venueId, actor: actorOf(op) });
    expect(entry.before).toEqual({ name: 'Test Venue' });
    expect(entry.after).toEqual({ name: 'The Anchor' });
  });

  it('availability: time periods, shifts and blackouts, by a staff user', async () => {
    const { op, venueId } = await setupVenue(t);
    const staff = await createStaff(t, op, { availability: 'write' }, [venueId]);
    const api = venueApi(t, staff.headers, venueId);
    const period = await api.post('/time-periods', { name: 'Dinner', time_from: '18:00', time_to: '22:00' });
    expect(period.statusCode, period.body).toBe(200);
    expect((await api.put(`/time-periods/${period.json().id}`, { time_to: '23:00' })).statusCode).toBe(200);
    const blackout = await api.post('/blackouts', { date_from: '2026-12-24', date_to: '2026-12-26' });
    expect(blackout.statusCode, blackout.body).toBe(200);
    expect((await api.del(`/blackouts/${blackout.json().id}`)).statusCode).toBe(200);

    const actions = (await auditLog(t, op.headers, `?venue_id=${venueId}`)).map((e) => `${e.action}:${e.actor.user_id}`);
    expect(actions).toEqual([
      `blackout.deleted:${staff.userId}`,
      `blackout.created:${staff.userId}`,
      `time_period.updated:${staff.userId}`,
      `time_period.created:${staff.userId}`,
    ]);
    const updated = await lastEntry(t, op.headers, 'time_period.updated');
    expect(updated).toMatchObject({ before: { time_to: '22:00' }, after: { time_to: '23:00' }, actor: actorOf(staff) });
  });

  it('tables', async () => {
    const { op, api } = await setupVenue(t);
    const id = (await api.post('/tables', { table_number: '7', capacity: 2 })).json().id;
    expect((await api.put(`/tables/${id}`, { capacity: 4, status: 'inactive' })).statusCode).toBe(200);
    const entry = await lastEntry(t, op.headers, 'table.updated');
    expect(entry).toMatchObject({
      entity_id: id,
      actor: actorOf(op),
      before: { capacity: 2, status: 'active' },
      after: { capacity: 4, status: 'inactive' },
    });
  });

  it('roles: created, their grid and venues changed, deleted', async () => {
    const { op, venueId } = await setupVenue(t);
    const created = await t.app.inject({ method: 'POST', url: '/api/my-roles', headers: op.headers, payload: { name: 'Hosts' } });
    expect(created.statusCode, created.body).toBe(200);
    const roleId = created.json().id;
    const update = await t.app.inject({
      method: 'PUT',
      url: `/api/my-roles/${roleId}`,
      headers: op.headers,
      payload: { name: 'Hosts', permissions: [{ permission_key: 'bookings', can_write: true }], venue_ids: [venueId] },
    });
    expect(update.statusCode, update.body).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/my-roles/${roleId}`, headers: op.headers })).statusCode).toBe(200);

    const entries = await auditLog(t, op.headers, '?entity_type=role');
    expect(entries.map((e) => e.action)).toEqual(['role.deleted', 'role.updated', 'role.created']);
    expect(entries[1]).toMatchObject({
      venue_id: null,
      actor: actorOf(op),
      before: { permissions: [], venue_ids: [] },
      after: { permissions: ['bookings:write'], venue_ids: [venueId] },
    });
  });

  it('users: created and updated, the password redacted', async () => {
    const { op } = await setupVenue(t);
    const roleId = (await t.app.inject({ method: 'POST', url: '/api/my-roles', headers: op.headers, payload: { name: 'Floor' } })).json()
      .id;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/my-users',
      headers: op.headers,
      payload: { name: 'Sam Server', email: 'sam.audit@example.test', password: 'a-long-password', role_id: roleId },
    });
    expect(created.statusCode, created.body).toBe(200);
    const userId = created.json().id;
    const update = await t.app.inject({
      method: 'PUT',
      url: `/api/my-users/${userId}`,
      headers: op.headers,
      payload: { name: 'Sam Steward', password: 'another-long-password' },
    });
    expect(update.statusCode, update.body).toBe(200);

    const made = await lastEntry(t, op.headers, 'user.created');
    expect(made).toMatchObject({
      entity_id: userId,
      actor: actorOf(op),
      after: { name: 'Sam Server', email: 'sam.audit@example.test', password: '[redacted]' },
    });
    const changed = await lastEntry(t, op.headers, 'user.updated');
    expect(changed.before).toEqual({ name: 'Sam Server', password_hash: '[redacted]' });
    expect(changed.after).toEqual({ name: 'Sam Steward', password_hash: '[redacted]' });
    // No secret anywhere in the stored rows.
    const stored = await t.db.kysely.selectFrom('audit_log').selectAll().where('entity_id', '=', userId).execute();
    expect(JSON.stringify(stored)).not.toMatch(/a-long-password|another-long-password|\$argon|\$2[aby]\$|scrypt/);
  });

  it('bookings: staff changes, status moves and cancellations, guest contact details redacted', async () => {
    const { op, venueId } = await setupVenue(t);
    const staff = await createStaff(t, op, { bookings: 'write' }, [venueId]);
    const id = await insertBooking(t, op.operatorId, venueId, { guest_name: 'Ada Lovelace', guest_email: 'ada@example.test' });
    const post = (path: string, payload?: object) =>
      t.app.inject({ method: 'POST', url: `/api/bookings/${id}/${path}`, headers: staff.headers, ...(payload ? { payload } : {}) });
    const details = await t.app.inject({
      method: 'PATCH',
      url: `/api/bookings/${id}/details`,
      headers: staff.headers,
      payload: { guest_name: 'Ada King', notes: 'Window seat' },
    });
    expect(details.statusCode, details.body).toBe(200);
    const cancel = await post('staff-cancel', { reason: 'Kitchen closed' });
    expect(cancel.statusCode, cancel.body).toBe(200);

    const entries = await auditLog(t, op.headers, `?entity_type=booking&entity_id=${id}`);
    expect(entries.map((e) => e.action)).toEqual(['booking.cancelled', 'booking.updated']);
    expect(entries[1]).toMatchObject({ actor: actorOf(staff), venue_id: venueId });
    expect(entries[1].before).toMatchObject({ guest_name: '[redacted]', notes: null });
    expect(entries[1].after).toMatchObject({ guest_name: '[redacted]', notes: 'Window seat' });
    expect(entries[0].before).toMatchObject({ status: 'confirmed' });
    expect(entries[0].after).toMatchObject({ status: 'cancelled', cancel_reason: 'Kitchen closed' });
    expect(JSON.stringify(entries)).not.toMatch(/Ada|ada@example/);
  });

  it('bookings made by staff: created with their actor and tables, guest contact details redacted', async () => {
    const { op, venueId } = await setupVenue(t);
    const staff = await createStaff(t, op, { bookings: 'write' }, [venueId]);
    const table = await t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${venueId}/tables`,
      headers: op.headers,
      payload: { table_number: '9', capacity: 4 },
    });
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${venueId}/staff-bookings`,
      headers: staff.headers,
      payload: {
        walk_in: true,
        party_size: 2,
        guest_name: 'Grace Hopper',
        guest_email: 'grace@example.test',
        table_ids: [table.json().id],
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as string;
    const entries = await auditLog(t, op.headers, `?entity_type=booking&entity_id=${id}`);
    expect(entries.map((e) => e.action)).toEqual(['booking.created']);
    expect(entries[0]).toMatchObject({ actor: actorOf(staff), venue_id: venueId, before: null });
    expect(entries[0].after).toMatchObject({ guest_name: '[redacted]', guest_count: 2, table_ids: [table.json().id] });
    expect(JSON.stringify(entries)).not.toMatch(/Grace|grace@example/);
  });

  it('refunds: a deposit refunded by a staff cancel, a voucher refunded', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const intent = await t.ctx.payments.createIntent({
      operatorId: op.operatorId,
      venueId,
      amountPence: 4000,
      capture: 'automatic',
      metadata: { kind: 'test' },
    });
    await t.ctx.payments.confirmSimulated(intent.id, 'pm_card_visa');
    const id = await insertBooking(t, op.operatorId, venueId, {
      deposit_type: 'deposit',
      deposit_pence: 4000,
      payment_intent_id: intent.id,
      payment_status: 'paid',
    });
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${id}/staff-cancel`,
      headers: op.headers,
      payload: { refund: true },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const cancelled = await lastEntry(t, op.headers, 'booking.cancelled');
    expect(cancelled.after).toMatchObject({ status: 'cancelled', payment_status: 'refunded', refunded_pence: 4000 });

    await enableVouchers(api);
    const paid = await paidIntent(t, api, 5000);
    const voucher = (await api.post('/vouchers', { amount_pence: 5000, mode: 'paid', payment_intent_id: paid })).json();
    expect((await api.post(`/vouchers/${voucher.id}/refund`)).statusCode).toBe(200);
    const refunded = await lastEntry(t, op.headers, 'voucher.refunded');
    expect(refunded).toMatchObject({
      entity_id: voucher.id,
      actor: actorOf(op),
      before: { status: 'active', remaining_pence: 5000, refund_id: null },
      after: { status: 'refunded', remaining_pence: 0, refunded_pence: 5000, refund_id: expect.stringMatching(/^re_/) },
    });
  });

  it('vouchers: settings, issue (without the code) and redemption', async () => {
    const { op, venueId, api } = await setupVenue(t);
    await enableVouchers(api, { expiration_months: 6 });
    const settings = await lastEntry(t, op.headers, 'voucher_settings.updated');
    expect(settings).toMatchObject({ venue_id: venueId, actor: actorOf(op), after: { enabled: true, expiration_months: 6 } });

    const voucher = await issueComp(api, { amount_pence: 3000 });
    const issued = await lastEntry(t, op.headers, 'voucher.issued');
    expect(issued).toMatchObject({ entity_id: voucher.id, after: { amount_pence: 3000, mode: 'comp' } });
    expect(JSON.stringify(issued)).not.toContain(voucher.code);

    const redeem = await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 1000 });
    expect(redeem.statusCode, redeem.body).toBe(200);
    const redeemed = await lastEntry(t, op.headers, 'voucher.redeemed');
    expect(redeemed).toMatchObject({ before: { remaining_pence: 3000 }, after: { remaining_pence: 2000, redeemed_pence: 1000 } });
  });

  it('guest exports and erasures, without the guest’s personal data', async () => {
    const { op, venueId } = await setupVenue(t);
    const guestId = await guestUser(t, 'Grace Hopper', { email: 'grace.audit@example.test' });
    await bookingOf(t, op.operatorId, venueId, guestId);
    expect((await crm(t, op.headers).get(`/${guestId}/export`)).statusCode).toBe(200);
    expect((await crm(t, op.headers).del(`/${guestId}`)).statusCode).toBe(200);

    const entries = await auditLog(t, op.headers, '?entity_type=guest');
    expect(entries.map((e) => e.action)).toEqual(['guest.erased', 'guest.exported']);
    expect(entries[0]).toMatchObject({ entity_id: guestId, actor: actorOf(op), after: { bookings_anonymised: 1 } });
    expect(JSON.stringify(entries)).not.toMatch(/Grace|grace\.audit/);
  });
});

/**
 * Test factories of the guest list: a live venue with an evening shift every day and a guest-list rule,
 * list profiles, admission groups and rules, promo codes (other modules' rows, inserted directly: their
 * own tests cover their routes), guests with keys, and the join request itself.
 */
import type { TestApp } from '../../../../test/helpers/app.js';
import { createGuest, createOperator, insertVenue, insertVenueRow } from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { grantKeys } from '../../payments/index.js';

export const EVERY_DAY = '["mon","tue","wed","thu","fri","sat","sun"]';
/** A Friday inside the default 90-day horizon of TEST_NOW (Monday 2026-06-15). */
export const FRIDAY = '2026-06-19';

/** A live venue (door capacity unless told) with an evening shift, 20:00–23:00, every day. */
export async function guestlistVenue(t: TestApp, venueFields: Record<string, unknown> = {}) {
  const op = await createOperator(t);
  const venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'door@venue.test', ...venueFields });
  await insertShift(t, venueId, { days_of_week: EVERY_DAY, time_type: 'custom', time_from: '20:00', time_to: '23:00' });
  return { op, venueId };
}

/** A guest-list access rule (every day) with a paid list at £10 a head unless told. */
export const insertList = (t: TestApp, venueId: string, fields: Record<string, unknown> = {}) =>
  insertAccessRule(t, venueId, {
    name: 'Guest list',
    rule_type: 'guestlist',
    days_of_week: EVERY_DAY,
    paid_guest_list_enabled: 1,
    paid_guest_list_value: 1000,
    ...fields,
  });

/** A list profile with these settings (the profiles module's row). */
export const insertListProfile = (t: TestApp, venueId: string, settings: Record<string, unknown>, groupId: string | null = null) =>
  insertVenueRow(
    t,
    'profiles',
    venueId,
    { family: 'list', name: 'List profile', settings: JSON.stringify(settings), admission_rule_group_id: groupId },
    'prf',
  );

/** An admission group with one rule of these fields; returns the group id. */
export async function insertAdmission(t: TestApp, venueId: string, ...rules: Record<string, unknown>[]): Promise<string> {
  const groupId = await insertVenueRow(t, 'admission_groups', venueId, { name: 'Regulars' }, 'agr');
  for (const fields of rules) {
    const row = { ...fields };
    if (Array.isArray(row.cond_tags)) row.cond_tags = JSON.stringify(row.cond_tags);
    await insertVenueRow(t, 'admission_rules', venueId, { group_id: groupId, name: 'Rule', ...row }, 'arl');
  }
  return groupId;
}

export const insertPromo = (t: TestApp, venueId: string, fields: Record<string, unknown>) =>
  insertVenueRow(t, 'promo_codes', venueId, { name: 'Promo', discount_pct: 50, uses: 0, ...fields }, 'promo');

/** A signed-in guest holding `keys` keys. */
export async function guestWithKeys(t: TestApp, keys: number, name = 'List Guest') {
  const guest = await createGuest(t, name);
  if (keys > 0) await grantKeys(t.db, guest.userId, keys, t.clock.now());
  return guest;
}

export function joinList(
  t: TestApp,
  venueId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  idempotencyKey?: string,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/guestlist-bookings`,
    headers: { ...headers, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: body,
  });
}

/** The guest's keys balance and ledger entries, oldest first. */
export async function ledgerOf(t: TestApp, userId: string) {
  const entries = await t.db.kysely
    .selectFrom('billing_ledger')
    .select(['type', 'delta', 'booking_id'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { balance: entries.reduce((sum, e) => sum + Number(e.delta), 0), entries };
}

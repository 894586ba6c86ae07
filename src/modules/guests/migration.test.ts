/**
 * Migration 0010 backfills the roster from existing bookings (with a guest user) and vouchers (by email);
 * 0012 then moves phones onto the roster entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import * as m0010 from '../../db/migrations/0010_guests.js';
import * as m0012 from '../../db/migrations/0012_guest_identity.js';
import { insertBooking } from '../bookings/core/bookings.test-support.js';
import { enableVouchers, issueComp } from '../vouchers/vouchers.test-support.js';
import { crm, guestUser } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('migration 0010_guests', () => {
  it('backfills roster, venues and search terms from bookings and vouchers', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const booker = await guestUser(t, 'Bea Backfill', { phone: '07700 900777' });
    const recipient = await guestUser(t, 'Rex Recipient', { email: 'rex.backfill@example.test' });
    await insertBooking(t, op.operatorId, venueId, { user_id: booker, created_at: '2026-03-01T10:00:00.000Z' });
    await insertBooking(t, op.operatorId, venueId, { user_id: booker, created_at: '2026-04-01T10:00:00.000Z' });
    // A portal user's booking and one without a user add no one.
    await insertBooking(t, op.operatorId, venueId, { user_id: op.userId });
    await insertBooking(t, op.operatorId, venueId, { user_id: null });
    await enableVouchers(api);
    await issueComp(api, { recipient_email: 'REX.backfill@example.test', recipient_name: 'Rex' });

    // 0012 builds on 0010's tables: undone first, applied again after the assertions on 0010's backfill.
    await m0012.down(t.db.kysely);
    await m0010.down(t.db.kysely);
    await m0010.up(t.db.kysely);

    const roster = await t.db.kysely
      .selectFrom('guest_roster')
      .selectAll()
      .where('operator_id', '=', op.operatorId)
      .orderBy('first_seen_at')
      .execute();
    expect(roster).toEqual([
      { operator_id: op.operatorId, user_id: booker, first_seen_at: '2026-03-01T10:00:00.000Z', last_seen_at: '2026-04-01T10:00:00.000Z' },
      {
        operator_id: op.operatorId,
        user_id: recipient,
        first_seen_at: t.clock.now().toISOString(),
        last_seen_at: t.clock.now().toISOString(),
      },
    ]);
    const terms = await t.db.kysely.selectFrom('guest_search_terms').select('term').where('user_id', '=', booker).execute();
    expect(terms.map((row) => row.term)).toContain('07700900777');

    // 0012: the roster entry takes the phone of the operator's latest booking; the record's phone and the
    // digit-only terms (a phone possibly given to another operator) are dropped.
    await m0012.up(t.db.kysely);
    const names = async (q: string) => (await crm(t, op.headers).get(`/search?q=${q}`)).json().data.map((g: { name: string }) => g.name);
    expect(await names('bea')).toEqual(['Bea Backfill']);
    expect(await names('0770090077')).toEqual([]);
    expect(await names('rex.back')).toEqual(['Rex Recipient']);
    expect((await crm(t, op.headers).get(`/${booker}`)).json().guest.phone).toBe('+44 7700 900123');
    expect((await t.db.kysely.selectFrom('users').select('phone').where('id', '=', booker).executeTakeFirstOrThrow()).phone).toBeNull();
    expect((await crm(t, op.headers).get(`/${booker}`)).json().guest.venue_ids).toBe(venueId);
  });
});

/**
 * Keys across server instances: two `maitred serve` processes share one PostgreSQL database and one
 * guest with keys for 3 places fires 20 joins at two venues through both at once. Exactly 3 are booked, the balance
 * never goes below zero and every spend names one of those bookings. PostgreSQL only (the embedded
 * SQLite default is one instance by design).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { ENGINE } from '../../../../test/helpers/db.js';
import { startCluster, type Cluster } from '../../../../test/helpers/serve.js';
import { addDays } from '../../../domain/venue-time.js';
import { guestlistVenue, guestWithKeys, insertList, ledgerOf } from './guestlist.test-support.js';

describe.runIf(ENGINE === 'postgres')('guest-list keys across two server processes', () => {
  let t: TestApp;
  let cluster: Cluster;
  /** Two venues, so that only the guest's ledger lock (not a venue's booking lock) stands between the joins. */
  const lists: { venueId: string; ruleId: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    for (let i = 0; i < 2; i++) {
      const { venueId } = await guestlistVenue(t);
      lists.push({ venueId, ruleId: await insertList(t, venueId) });
    }
    cluster = await startCluster(2, { DATABASE_URL: t.db.url, RATE_LIMITS: 'public_booking=1000/60' });
  }, 120_000);

  afterAll(async () => {
    await cluster.stop();
    await t.close();
  });

  it('20 concurrent joins by one guest with keys for 3 through both servers: exactly 3 spend', async () => {
    // The servers run on the real clock: the guest's session must be fresh by it.
    t.clock.set(new Date().toISOString());
    const guest = await guestWithKeys(t, 30);
    // A date three weeks ahead is inside the booking window.
    const date = addDays(new Date().toISOString().slice(0, 10), 21);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const { venueId, ruleId } = lists[Math.floor(i / 2) % 2];
        const body = { rule_id: ruleId, date, party_size: 1, option_kind: 'paid' };
        return cluster.call(i, 'POST', `/api/public/venues/${venueId}/guestlist-bookings`, body, guest.headers);
      }),
    );
    const codes = answers.map((a) => a.status);
    expect(
      codes.filter((c) => c === 200),
      JSON.stringify(answers.filter((a) => a.status !== 402)),
    ).toHaveLength(3);
    expect(codes.filter((c) => c === 402)).toHaveLength(17);
    const ledger = await ledgerOf(t, guest.userId);
    expect(ledger.balance).toBe(0);
    const booked = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.booking_id));
    expect(new Set(ledger.entries.filter((e) => e.type === 'spend').map((e) => e.booking_id))).toEqual(booked);
  }, 60_000);
});

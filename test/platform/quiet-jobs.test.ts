/**
 * The background jobs of a quiet server (src/jobs.ts) change no venue: a beat that finds nothing due
 * writes nothing a cache derives from, so no venue's cached answers are emptied, on this instance or
 * (PostgreSQL) on any other through the change notifications.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_VENUES, type Touched } from '../../src/db/change-feed.js';
import { scheduleJobs } from '../../src/jobs.js';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../helpers/app.js';
import { settleChanges } from '../helpers/db.js';

let t: TestApp;
let venueId: string;
beforeAll(async () => {
  t = await createTestApp();
  const op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId);
});
afterAll(async () => t.close());

/** The marks heard while `run` runs, less settleChanges' own marker (PostgreSQL). */
async function marksDuring(run: () => Promise<unknown>): Promise<Touched[]> {
  const marks: Touched[] = [];
  const stop = t.ctx.db.changes.onMark((venues) => marks.push(venues));
  try {
    await run();
    await settleChanges(t.db);
  } finally {
    stop();
  }
  return marks.filter((venues) => venues === ALL_VENUES || !venues.every((id) => id.startsWith('ven_settle_')));
}

const JOBS = ['heartbeat', 'release-unpaid', 'smart-tables', 'webhooks', 'sms', 'reminders', 'waitlist-offers', 'retention'];

describe('background jobs on a quiet server', () => {
  it.each(JOBS)('%s marks no venue changed', async (name) => {
    const scheduler = scheduleJobs(t.ctx, 'quiet-test');
    expect(await scheduler.run(name)).toBe(true);
    await settleChanges(t.db);
    // A day on: a one-instance job is due again (its claim is refused within its period).
    t.clock.advance(86_400_000);
    const marks = await marksDuring(async () => expect(await scheduler.run(name)).toBe(true));
    expect(marks.filter((venues) => venues === ALL_VENUES)).toEqual([]);
    expect(marks).toEqual([]);
  });

  it('a lapsed waitlist offer marks its own venue only', async () => {
    const at = t.clock.now().toISOString();
    await t.db.kysely
      .insertInto('waitlist_entries')
      .values({
        id: 'wle_quiet_jobs',
        venue_id: venueId,
        kind: 'online',
        status: 'offered',
        party_size: 2,
        guest_name: 'Ada',
        date: at.slice(0, 10),
        offer_expires_at: new Date(t.clock.now().getTime() - 60_000).toISOString(),
        status_changed_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await settleChanges(t.db);
    const marks = await marksDuring(() => t.ctx.waitlist.online.runOffers());
    const entry = await t.db.kysely
      .selectFrom('waitlist_entries')
      .select('status')
      .where('id', '=', 'wle_quiet_jobs')
      .executeTakeFirstOrThrow();
    expect(entry.status).toBe('expired');
    expect(marks.length).toBeGreaterThan(0);
    expect(new Set(marks.flat())).toEqual(new Set([venueId]));
  });
});

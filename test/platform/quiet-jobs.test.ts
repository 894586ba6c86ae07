/**
 * The background jobs of a quiet server (src/jobs.ts) change no venue: a beat that finds nothing due
 * writes nothing a cache derives from, so no venue's cached answers are emptied, on this instance or
 * (PostgreSQL) on any other through the change notifications.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Touched } from '../../src/db/change-feed.js';
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

/**
 * The marks this instance's own statements make while `run` runs. PostgreSQL: notifications heard meanwhile
 * are set aside (a late one from the set-up would be counted against the job); what a statement
 * announces to the other instances is the mark it makes here, so its own marks are what to check.
 */
async function marksDuring(run: () => Promise<unknown>): Promise<Touched[]> {
  await settleChanges(t.db);
  const feed = t.ctx.db.changes;
  const hear = feed.received.bind(feed);
  const marks: Touched[] = [];
  const stop = feed.onMark((venues) => marks.push(venues));
  feed.received = () => undefined;
  try {
    await run();
  } finally {
    feed.received = hear;
    stop();
  }
  return marks;
}

describe('background jobs on a quiet server', () => {
  it('every scheduled job marks no venue changed', async () => {
    const scheduler = scheduleJobs(t.ctx, 'quiet-test');
    const names = scheduler.names();
    expect(names).toEqual(
      expect.arrayContaining([
        'heartbeat',
        'release-unpaid',
        'smart-tables',
        'webhooks',
        'sms',
        'reminders',
        'waitlist-offers',
        'retention',
      ]),
    );
    for (const name of names) expect(await scheduler.run(name)).toBe(true);
    // A day on: every job is due again (a one-instance job's claim is refused within its period).
    t.clock.advance(86_400_000);
    const marked: Record<string, Touched[]> = {};
    for (const name of names) {
      const marks = await marksDuring(async () => expect(await scheduler.run(name)).toBe(true));
      if (marks.length > 0) marked[name] = marks;
    }
    expect(marked).toEqual({});
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

/**
 * The writes of a group commit's batch of public bookings, on both engines: the confirmed table bookings of
 * a batch leave their rows (booking, tables, slots, history, confirmation mail) to one multi-row statement
 * per table, written before the commit, so each booking is stored whole; a row refused there (a slot taken
 * behind the engine's back, as by another instance) fails the batch, which is then written booking by
 * booking: that one booking gets its 409, the others are booked. The guests of a batch are found by email
 * together, and one email is one guest record however many of the batch's bookings give it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, insertVenueRow, type TestApp } from '../../../../test/helpers/app.js';
import { ENGINE, settleChanges } from '../../../../test/helpers/db.js';
import { openSqlite } from '../../../db/connect.js';
import { historyOf, insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { insertBooking } from '../core/bookings.test-support.js';
import { slotsOf, TABLE_TAKEN_MESSAGE } from '../core/slots.js';

const TOKEN = 'batch-writes-metrics';
const FRIDAY = '2026-06-19';
let t: TestApp;
let operatorId: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=100000/60', METRICS_TOKEN: TOKEN });
  operatorId = (await createOperator(t)).operatorId;
});
afterAll(async () => t.close());

/** A live venue open 12:00–23:00 on Fridays with `tables` tables of two. */
async function venueWith(tables: number) {
  const venueId = await insertVenue(t, operatorId, { status: 'live' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '12:00', time_to: '23:00' });
  const ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
  const tableIds: string[] = [];
  for (let i = 1; i <= tables; i++)
    tableIds.push(
      await insertVenueRow(
        t,
        'venue_tables',
        venueId,
        { table_number: String(i), capacity: 2, min_covers: 1, status: 'active', table_type: 'standard' },
        'tbl',
      ),
    );
  return { venueId, ruleId, tableIds };
}

const book = (venueId: string, ruleId: string, time: string, n: number, email = `batch${n}@example.test`) =>
  t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    remoteAddress: `10.9.0.${n}`,
    payload: {
      access_rule_id: ruleId,
      rule_type: 'table',
      date: FRIDAY,
      time,
      party_size: 2,
      guest_name: `Batch Guest ${n}`,
      guest_email: email,
    },
  });

/** Booking transactions so far, and the bookings they held. */
async function batches(): Promise<{ count: number; sum: number }> {
  const text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  return { count: value('maitred_booking_batch_size_count'), sum: value('maitred_booking_batch_size_sum') };
}

/**
 * The stays windows read from the database, kept from a committed batch, and taken over by the next batch's
 * transaction so far, and the bookings refused from the cached picture.
 */
async function stayWindows(): Promise<{ read: number; kept: number; takenOver: number; refusedCached: number }> {
  const text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    read: value('maitred_stays_windows_total{source="read"}'),
    kept: value('maitred_stays_windows_total{source="kept"}'),
    takenOver: value('maitred_stays_windows_total{source="taken_over"}'),
    refusedCached: value('maitred_sold_out_refusals_total{kind="booking",stage="cached"}'),
  };
}

describe('a batch of public bookings', () => {
  it('leaves the next pre-check the stays it committed (SQLite: no read of them; PostgreSQL reads them again)', async () => {
    const { venueId, ruleId } = await venueWith(3);
    const firstTwo = await Promise.all([40, 41].map((n) => book(venueId, ruleId, '19:00', n)));
    expect(firstTwo.map((answer) => answer.statusCode)).toEqual([200, 200]);
    await settleChanges(t.db);
    const before = await stayWindows();
    // The last table: its pre-check answers from the picture the batch before left (SQLite) or reads it again.
    const third = await book(venueId, ruleId, '19:00', 42);
    expect(third.statusCode, third.body).toBe(200);
    const between = await stayWindows();
    if (t.db.engine === 'sqlite') {
      expect(between.read - before.read).toBe(0);
      expect(between.kept - before.kept).toBe(1);
      // Its transaction took that picture over too, instead of reading the stays again.
      expect(between.takenOver - before.takenOver).toBe(1);
    } else {
      expect(between.read - before.read).toBeGreaterThanOrEqual(1);
      expect(between.kept - before.kept).toBe(0);
      expect(between.takenOver - before.takenOver).toBe(0);
    }
    // Every table taken: refused from the cached picture, which must hold all three stays (the one the third's
    // batch kept, on SQLite); its alternatives then read other dates.
    const fourth = await book(venueId, ruleId, '19:00', 43);
    expect(fourth.statusCode, fourth.body).toBe(409);
    expect((await stayWindows()).refusedCached - between.refusedCached).toBe(1);
    // The stored bookings are the three answered.
    const stored = await t.db.kysely
      .selectFrom('bookings')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('status', '=', 'confirmed')
      .execute();
    expect(stored).toHaveLength(3);
  });

  it.runIf(ENGINE === 'sqlite')(
    'reads the stays again in the transaction when another connection committed since the batch before (SQLite)',
    async () => {
      const { venueId, ruleId, tableIds } = await venueWith(1);
      expect((await book(venueId, ruleId, '12:00', 50)).statusCode).toBe(200);
      // Another process (the CLI, a second server) books the one table at 19:00 (18:00 UTC in June) on its own
      // connection, and without slot rows: only a read of the stays inside the transaction can see it.
      const other = openSqlite(t.db.url.slice('sqlite:'.length));
      try {
        const at = t.clock.now().toISOString();
        const id = `bkg_other${Date.now()}`;
        const stay = { starts_at: '2026-06-19T18:00:00.000Z', ends_at: '2026-06-19T20:00:00.000Z' };
        await other.kysely
          .insertInto('bookings')
          .values({
            id,
            operator_id: operatorId,
            venue_id: venueId,
            kind: 'table',
            status: 'confirmed',
            booking_date: FRIDAY,
            start_time: '19:00',
            duration_minutes: 120,
            guest_count: 2,
            guest_name: 'Other Process',
            guest_email: 'other@example.test',
            rule_type: 'table',
            source: 'staff',
            created_at: at,
            updated_at: at,
            ...stay,
          })
          .execute();
        await other.kysely
          .insertInto('booking_tables')
          .values({ booking_id: id, table_id: tableIds[0]!, venue_id: venueId, ...stay })
          .execute();
      } finally {
        await other.close();
      }
      // This process has not polled the file's data version since (it does at most every 100 ms): its
      // caches still show the table free, and its pre-check lets the booking through to the transaction.
      const poll = t.db.changes.poll;
      t.db.changes.poll = undefined;
      try {
        const before = await stayWindows();
        const answer = await book(venueId, ruleId, '19:00', 51);
        expect(answer.statusCode, answer.body).toBe(409);
        expect((await stayWindows()).takenOver - before.takenOver).toBe(0);
      } finally {
        t.db.changes.poll = poll;
      }
      const confirmed = await t.db.kysely
        .selectFrom('bookings')
        .select('guest_name')
        .where('venue_id', '=', venueId)
        .where('start_time', '=', '19:00')
        .execute();
      expect(confirmed).toEqual([{ guest_name: 'Other Process' }]);
    },
  );

  it('stores every booking of the batch whole: row, tables, slots, history and confirmation mail', async () => {
    const { venueId, ruleId } = await venueWith(6);
    const times = ['12:00', '13:00', '14:00', '15:00', '16:00', '17:00'];
    const before = await batches();
    const answers = await Promise.all(times.map((time, n) => book(venueId, ruleId, time, n)));
    const after = await batches();
    // Six bookings in fewer transactions: at least one batch held several.
    expect(after.sum - before.sum).toBe(6);
    expect(after.count - before.count).toBeLessThan(6);
    for (const [n, answer] of answers.entries()) {
      expect(answer.statusCode).toBe(200);
      const { booking_id: id, reference } = answer.json();
      const row = await t.db.kysely.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'confirmed', reference, start_time: times[n], guest_email: `batch${n}@example.test` });
      const tables = await t.db.kysely.selectFrom('booking_tables').select('table_id').where('booking_id', '=', id).execute();
      expect(tables).toHaveLength(1);
      // A two-hour stay holds eight 15-minute slots of its table.
      const slots = await t.db.kysely.selectFrom('booking_slots').select(['table_id', 'slot']).where('booking_id', '=', id).execute();
      expect(slots).toHaveLength(8);
      expect(new Set(slots.map((s) => s.table_id))).toEqual(new Set([tables[0]!.table_id]));
      expect(await historyOf(t, id)).toEqual([{ action: 'create', to_status: 'confirmed' }]);
      const mail = await t.db.kysely
        .selectFrom('mail_outbox')
        .select(['template', 'template_data'])
        .where('recipient', '=', `batch${n}@example.test`)
        .execute();
      expect(mail).toHaveLength(1);
      expect(mail[0]!.template).toBe('booking.confirmation');
      expect(JSON.parse(mail[0]!.template_data!)).toMatchObject({ id, reference });
    }
  });

  it('writes a batch again booking by booking when one of its slots was taken behind the engine: that booking alone is refused', async () => {
    const { venueId, ruleId, tableIds } = await venueWith(1);
    // Another instance's stay the engine cannot see (its booking is not active): its slots hold 20:00–22:00
    // (19:00–21:00 UTC in June) at the one table.
    const hidden = await insertBooking(t, operatorId, venueId, {
      status: 'cancelled',
      starts_at: '2026-06-19T19:00:00.000Z',
      ends_at: '2026-06-19T21:00:00.000Z',
    });
    await t.db.kysely
      .insertInto('booking_slots')
      .values(
        slotsOf(new Date('2026-06-19T19:00:00.000Z'), new Date('2026-06-19T21:00:00.000Z')).map((slot) => ({
          table_id: tableIds[0]!,
          slot,
          booking_id: hidden,
          venue_id: venueId,
        })),
      )
      .execute();
    const before = await batches();
    const [early, taken, late] = await Promise.all(['18:00', '20:00', '22:00'].map((time, n) => book(venueId, ruleId, time, 10 + n)));
    const after = await batches();
    expect(after.count - before.count).toBeLessThan(3);
    expect(early!.statusCode).toBe(200);
    expect(late!.statusCode).toBe(200);
    expect(taken!.statusCode).toBe(409);
    expect(taken!.json().error).toBe(TABLE_TAKEN_MESSAGE);
    const stored = await t.db.kysely
      .selectFrom('bookings')
      .select(['start_time', 'status'])
      .where('venue_id', '=', venueId)
      .where('id', '!=', hidden)
      .orderBy('start_time')
      .execute();
    expect(stored).toEqual([
      { start_time: '18:00', status: 'confirmed' },
      { start_time: '22:00', status: 'confirmed' },
    ]);
    // Nothing of the refused booking was left behind: no mail to its guest.
    const mails = await t.db.kysely.selectFrom('mail_outbox').select('id').where('recipient', '=', 'batch11@example.test').execute();
    expect(mails).toEqual([]);
  });

  it('gives the bookings of one email in a batch one guest record: an existing one, or one made for the first', async () => {
    const { venueId, ruleId } = await venueWith(6);
    const known = await book(venueId, ruleId, '12:00', 20, 'Known.Guest@Example.test');
    expect(known.statusCode).toBe(200);
    const knownId = (
      await t.db.kysely.selectFrom('users').select('id').where('email', '=', 'known.guest@example.test').executeTakeFirstOrThrow()
    ).id;
    const before = await batches();
    const answers = await Promise.all([
      book(venueId, ruleId, '14:00', 21, 'new.guest@example.test'),
      book(venueId, ruleId, '15:00', 22, 'known.guest@example.test'),
      book(venueId, ruleId, '16:00', 23, 'NEW.guest@example.test'),
      book(venueId, ruleId, '17:00', 24, 'known.guest@example.test'),
    ]);
    const after = await batches();
    expect(after.count - before.count).toBeLessThan(4);
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    const users = await t.db.kysely
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('email', 'in', ['new.guest@example.test', 'known.guest@example.test'])
      .orderBy('email')
      .execute();
    expect(users).toHaveLength(2);
    const [knownUser, newUser] = users;
    expect(knownUser!.id).toBe(knownId);
    expect(newUser).toMatchObject({ email: 'new.guest@example.test', name: 'Batch Guest 21' });
    const owners = await t.db.kysely
      .selectFrom('bookings')
      .select(['start_time', 'user_id'])
      .where('venue_id', '=', venueId)
      .orderBy('start_time')
      .execute();
    expect(owners).toEqual([
      { start_time: '12:00', user_id: knownId },
      { start_time: '14:00', user_id: newUser!.id },
      { start_time: '15:00', user_id: knownId },
      { start_time: '16:00', user_id: newUser!.id },
      { start_time: '17:00', user_id: knownId },
    ]);
    // Both are on the venue's roster once, found by their names.
    const roster = await t.db.kysely.selectFrom('guest_roster_venues').select('user_id').where('venue_id', '=', venueId).execute();
    expect(roster.map((r) => r.user_id).sort()).toEqual([knownId, newUser!.id].sort());
  });
});

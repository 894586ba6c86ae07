/**
 * The change feed that keeps cached answers right: which venues a statement touches, generations
 * bumped by writes (not reads, not ignored tables), transactions marking again when they end, the
 * venue cache refusing answers computed across a change, and — on PostgreSQL — a change committed by
 * another instance reaching this one within a second, and never before it commits.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_VENUES, touchedBy } from '../../src/db/change-feed.js';
import { openPostgres, openSqlite } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import { withTransaction } from '../../src/db/transaction.js';
import { fixedClock } from '../../src/platform/clock.js';
import { VenueCache } from '../../src/platform/venue-cache.js';
import { createTestDb, ENGINE, settleChanges, TEST_PG_URL, type TestDb } from '../helpers/db.js';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
// Own commits are heard back a moment later on PostgreSQL: each test starts once the earlier ones' are in.
beforeEach(async () => settleChanges(db));
afterAll(async () => db.close());

const at = '2026-06-15T12:00:00.000Z';
const block = (venueId: string, id: string) => ({
  id,
  venue_id: venueId,
  table_id: 'tbl_x',
  blocked_from: at,
  blocked_to: at,
  reason: 'x',
  created_at: at,
  updated_at: at,
});

/** A write to one venue's data that changes no row (no foreign keys to satisfy). */
const touch = (k: Kysely<Database>, venueId: string) =>
  k.updateTable('table_blocks').set({ reason: 'x' }).where('venue_id', '=', venueId).execute();

describe('touchedBy', () => {
  const k = () => db.kysely;
  it('names the venues of an insert, and of an update or delete by venue', () => {
    expect(
      touchedBy(
        k()
          .insertInto('table_blocks')
          .values([block('ven_a', 'b1'), block('ven_b', 'b2')])
          .toOperationNode(),
      ),
    ).toEqual(['ven_a', 'ven_b']);
    expect(
      touchedBy(
        k().updateTable('venue_tables').set({ capacity: 2 }).where('venue_id', '=', 'ven_a').where('id', '=', 't').toOperationNode(),
      ),
    ).toEqual(['ven_a']);
    expect(touchedBy(k().deleteFrom('table_blocks').where('id', '=', 'b1').where('venue_id', '=', 'ven_c').toOperationNode())).toEqual([
      'ven_c',
    ]);
    expect(touchedBy(k().updateTable('venues').set({ name: 'x' }).where('id', '=', 'ven_d').toOperationNode())).toEqual(['ven_d']);
  });

  it('every venue when it cannot tell; nothing for reads and ignored tables', () => {
    expect(touchedBy(k().updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', 'bkg_1').toOperationNode())).toBe(
      ALL_VENUES,
    );
    expect(touchedBy(k().deleteFrom('booking_slots').where('booking_id', '=', 'bkg_1').toOperationNode())).toBe(ALL_VENUES);
    expect(touchedBy(sql`delete from table_blocks`.toOperationNode() as never)).toBe(ALL_VENUES);
    expect(touchedBy(k().selectFrom('venues').selectAll().toOperationNode())).toBeNull();
    expect(touchedBy(k().updateTable('sessions').set({ last_seen_at: at }).where('id', '=', 's').toOperationNode())).toBeNull();
    expect(
      touchedBy(
        k()
          .insertInto('mail_outbox')
          .values({} as never)
          .toOperationNode(),
      ),
    ).toBeNull();
    // A ticket (no venue column) is written with its booking, whose row names the venue: not every venue.
    expect(
      touchedBy(
        k()
          .insertInto('event_tickets')
          .values({} as never)
          .toOperationNode(),
      ),
    ).toBeNull();
    expect(
      touchedBy(
        k()
          .insertInto('promoter_sign_ups')
          .values({} as never)
          .toOperationNode(),
      ),
    ).toBeNull();
  });
});

describe('generations and the venue cache', () => {
  it('a write to a venue invalidates its cached answers (not another venue’s); reads and ignored tables do not', async () => {
    const cache = new VenueCache<number>(db.changes, fixedClock(at), { ttlMs: 60_000 });
    let computed = 0;
    const get = (venueId: string) => cache.get(venueId, 'k', async () => ++computed);
    expect(await get('ven_a')).toBe(1);
    expect(await get('ven_b')).toBe(2);
    expect(await get('ven_a')).toBe(1);
    await db.kysely.selectFrom('venues').selectAll().execute();
    await db.kysely.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', 'none').execute();
    expect(await get('ven_a')).toBe(1);
    await touch(db.kysely, 'ven_a');
    expect(await get('ven_a')).toBe(3);
    expect(await get('ven_b')).toBe(2);
    // A write it cannot place invalidates everything.
    await db.kysely.deleteFrom('table_blocks').where('id', '=', 'none').execute();
    expect(await get('ven_b')).toBe(4);
  });

  it('writes to the stays move everything but not the configuration scope', async () => {
    const clock = fixedClock(at);
    const answers = new VenueCache<number>(db.changes, clock, { ttlMs: 60_000 });
    const configs = new VenueCache<number>(db.changes, clock, { ttlMs: 60_000, scope: 'configuration' });
    let n = 0;
    expect(await answers.get('ven_s', 'k', async () => ++n)).toBe(1);
    expect(await configs.get('ven_s', 'k', async () => ++n)).toBe(2);
    await db.kysely.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', 'none').execute();
    expect(await answers.get('ven_s', 'k', async () => ++n)).toBe(3);
    expect(await configs.get('ven_s', 'k', async () => ++n)).toBe(2);
    await touch(db.kysely, 'ven_s');
    expect(await configs.get('ven_s', 'k', async () => ++n)).toBe(4);
  });

  it('an answer computed while the venue changed is served once but not kept', async () => {
    const cache = new VenueCache<string>(db.changes, fixedClock(at), { ttlMs: 60_000 });
    const first = await cache.get('ven_e', 'k', async () => {
      await touch(db.kysely, 'ven_e');
      return 'read before the change';
    });
    expect(first).toBe('read before the change');
    expect(await cache.get('ven_e', 'k', async () => 'fresh')).toBe('fresh');
  });

  it('answers expire after the TTL on the clock', async () => {
    const clock = fixedClock(at);
    const cache = new VenueCache<number>(db.changes, clock, { ttlMs: 15_000 });
    let n = 0;
    expect(await cache.get('ven_f', 'k', async () => ++n)).toBe(1);
    clock.advance(14_000);
    expect(await cache.get('ven_f', 'k', async () => ++n)).toBe(1);
    clock.advance(2_000);
    expect(await cache.get('ven_f', 'k', async () => ++n)).toBe(2);
  });

  it('a transaction marks its venues again when it ends, so nothing read mid-transaction is kept', async () => {
    const cache = new VenueCache<string>(db.changes, fixedClock(at), { ttlMs: 60_000 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = withTransaction(db, async (trx) => {
      await touch(trx, 'ven_g');
      await held;
    });
    // On SQLite the one connection is inside the transaction; on PostgreSQL another connection reads.
    const during = cache.get('ven_g', 'k', async () => 'during');
    release();
    await writing;
    await during;
    expect(await cache.get('ven_g', 'k', async () => 'after')).toBe('after');
  });
});

describe.runIf(ENGINE === 'sqlite')('another process on the same file (SQLite)', () => {
  it('a commit by another connection invalidates the cached answers within 100 ms; reads there do not', async () => {
    const other = openSqlite(db.url.slice('sqlite:'.length));
    try {
      const cache = new VenueCache<number>(db.changes, fixedClock(at), { ttlMs: 60_000 });
      let n = 0;
      const get = () => cache.get('ven_p', 'k', async () => ++n);
      expect(await get()).toBe(1);
      await other.kysely.selectFrom('table_blocks').selectAll().execute();
      expect(await get()).toBe(1);
      const later = () => new Promise((resolve) => setTimeout(resolve, 120));
      // A write there that changes no row changes nothing here.
      await touch(other.kysely, 'ven_p');
      await later();
      expect(await get()).toBe(1);
      // The other connection's feed sees its own writes; this one only the file's data version.
      await sql`create table if not exists probe_writes (n integer)`.execute(other.kysely);
      await later();
      expect(await get()).toBe(2);
      expect(await get()).toBe(2);
      await withTransaction(other, async (trx) => {
        await sql`insert into probe_writes (n) values (1)`.execute(trx);
      });
      await later();
      expect(await get()).toBe(3);
      expect(await get()).toBe(3);
    } finally {
      await other.close();
    }
  });
});

describe.runIf(ENGINE === 'postgres')('across instances (PostgreSQL)', () => {
  it('a change another instance commits reaches this one within a second; an uncommitted one never', async () => {
    const other = openPostgres(TEST_PG_URL, { schema: db.schema });
    try {
      const cache = new VenueCache<number>(db.changes, fixedClock(at), { ttlMs: 60_000 });
      let n = 0;
      const get = () => cache.get('ven_h', 'k', async () => ++n);
      // Let both listeners connect (each marks everything once when it starts listening).
      await new Promise((r) => setTimeout(r, 300));
      expect(await get()).toBe(1);
      expect(await get()).toBe(1);
      // Rolled back in the other instance: no notification.
      await withTransaction(other, async (trx) => {
        await touch(trx, 'ven_h');
        throw new Error('roll back');
      }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect(await get()).toBe(1);
      // Committed there: seen here within a second.
      await withTransaction(other, async (trx) => {
        await touch(trx, 'ven_h');
      });
      const started = Date.now();
      while ((await get()) === 1 && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 10));
      expect(await get()).toBe(2);
      expect(Date.now() - started).toBeLessThan(1000);
      // A write outside any transaction there (committed as it runs): seen here too.
      await touch(other.kysely, 'ven_h');
      const again = Date.now();
      while ((await get()) === 2 && Date.now() - again < 1000) await new Promise((r) => setTimeout(r, 10));
      expect(await get()).toBe(3);
    } finally {
      await other.close();
    }
  });
});

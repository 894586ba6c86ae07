/**
 * The database's own guarantee against double booking: booking_slots' primary key (table_id, slot)
 * refuses a second active stay on a table even when the service's availability check is bypassed.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../../../test/helpers/db.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { withTransaction } from '../../../db/transaction.js';
import { AppError } from '../../../platform/errors.js';
import { base32 } from '../../../platform/ids.js';
import { claimSlots, releaseSlots, slotsOf, TABLE_TAKEN_MESSAGE } from './slots.js';

let db: TestDb;
const venueId = `ven_${base32(randomBytes(8))}`;
const at = '2026-06-01T00:00:00.000Z';
const d = (iso: string) => new Date(iso);

async function insertBooking(id: string) {
  await db.kysely
    .insertInto('bookings')
    .values({
      id,
      operator_id: 'opr_slots',
      venue_id: venueId,
      kind: 'table',
      status: 'confirmed',
      booking_date: '2026-06-20',
      created_at: at,
      updated_at: at,
    })
    .execute();
}

beforeAll(async () => {
  db = await createTestDb();
  await db.kysely.insertInto('operators').values({ id: 'opr_slots', name: 'Slots', created_at: at, updated_at: at }).execute();
  await db.kysely
    .insertInto('venues')
    .values({ id: venueId, operator_id: 'opr_slots', name: 'Slots venue', address: '1 Slot Street', created_at: at, updated_at: at })
    .execute();
  for (const id of ['bkg_a', 'bkg_b', 'bkg_c']) await insertBooking(id);
});

afterAll(async () => {
  await db.close();
});

describe('slotsOf', () => {
  it('covers every 15-minute slot a stay touches, half-open at the end', () => {
    expect(slotsOf(d('2026-06-20T19:00:00Z'), d('2026-06-20T21:00:00Z'))).toHaveLength(8);
    expect(slotsOf(d('2026-06-20T19:10:00Z'), d('2026-06-20T21:10:00Z'))).toHaveLength(9);
  });
});

describe('booking_slots', () => {
  it('refuses a raw insert of a slot another stay holds on that table (no service check involved)', async () => {
    await claimSlots(db, { id: 'bkg_a', venueId }, ['tbl_1'], d('2026-06-20T19:00:00Z'), d('2026-06-20T21:00:00Z'));
    const [slot] = slotsOf(d('2026-06-20T20:30:00Z'), d('2026-06-20T20:45:00Z'));
    const error = await db.kysely
      .insertInto('booking_slots')
      .values({ table_id: 'tbl_1', slot, booking_id: 'bkg_b', venue_id: venueId })
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(error)).toBe(true);
    // The same slot on another table is free.
    await db.kysely.insertInto('booking_slots').values({ table_id: 'tbl_2', slot, booking_id: 'bkg_b', venue_id: venueId }).execute();
  });

  it('claimSlots answers 409 for an overlapping stay and its transaction writes nothing', async () => {
    const error = await withTransaction(db, async (trx) => {
      await trx.updateTable('bookings').set({ notes: 'should roll back' }).where('id', '=', 'bkg_c').execute();
      await claimSlots(trx, { id: 'bkg_c', venueId }, ['tbl_3', 'tbl_1'], d('2026-06-20T20:45:00Z'), d('2026-06-20T22:00:00Z'));
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).message).toBe(TABLE_TAKEN_MESSAGE);
    const rows = await db.kysely.selectFrom('booking_slots').select('table_id').where('booking_id', '=', 'bkg_c').execute();
    expect(rows).toEqual([]);
    const booking = await db.kysely.selectFrom('bookings').select('notes').where('id', '=', 'bkg_c').executeTakeFirstOrThrow();
    expect(booking.notes).toBeNull();
  });

  it('a stay ending when the next starts shares no slot', async () => {
    await claimSlots(db, { id: 'bkg_c', venueId }, ['tbl_1'], d('2026-06-20T21:00:00Z'), d('2026-06-20T22:00:00Z'));
    expect(await db.kysely.selectFrom('booking_slots').select('slot').where('booking_id', '=', 'bkg_c').execute()).toHaveLength(4);
  });

  it('released slots (a cancelled stay) can be claimed again; a partial release frees only the later slots', async () => {
    await releaseSlots(db, 'bkg_c');
    const [from] = slotsOf(d('2026-06-20T20:00:00Z'), d('2026-06-20T20:15:00Z'));
    await releaseSlots(db, 'bkg_a', from);
    await claimSlots(db, { id: 'bkg_c', venueId }, ['tbl_1'], d('2026-06-20T20:00:00Z'), d('2026-06-20T22:00:00Z'));
    const held = await db.kysely.selectFrom('booking_slots').select('slot').where('booking_id', '=', 'bkg_a').execute();
    expect(held).toHaveLength(4);
  });
});

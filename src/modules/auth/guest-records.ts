/**
 * Guest records: the guest user a booking's or a ticket sale's contact details are filed under, found or
 * made by email, one at a time or for a whole group commit batch (decisions: guests are matched by email).
 */
import type { Insertable } from 'kysely';
import type { DeferredRows } from '../../db/deferred-rows.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { orderedId } from '../../platform/ids.js';
import type { UsersTable } from './auth.table.js';
import { normaliseEmail, userRow } from './users.repository.js';

/**
 * A guest record as a booking's roster entry needs it: its id, name and (normalised) email; `made` when it
 * is new in the caller's transaction (`newGuestRecord`), so that nothing (a roster entry, search terms)
 * can name its fresh id yet.
 */
export type GuestRecord = { id: string; name: string; email: string; made?: true };

/** A user row as a booking's guest record: null for a portal user (a booking never links to a staff account). */
const asGuest = (row: { id: string; role: string; name: string; email: string }): GuestRecord | null =>
  row.role === 'guest' ? { id: row.id, name: row.name, email: row.email } : null;

/**
 * The guest record for a booking's contact details (decisions: guests are matched by email): the guest
 * user with that email, or a new one without a password (they can register later and claim it). Null
 * when the email belongs to a portal (staff) user: a booking never links to a staff account. Safe under
 * concurrency: of two first bookings by one email, one inserts and the other finds it. The record keeps no
 * phone: a phone given with a booking belongs to that operator's roster entry (guests module), not to a
 * record every operator's bookings share.
 */
export async function guestForEmail(db: Conn, guest: { name: string; email: string }, now: Date): Promise<string | null> {
  return (await guestRecordForEmail(db, guest, now))?.id ?? null;
}

/**
 * `guestForEmail` answering the guest record's name and email too (what its roster search terms are made
 * of), in the same statements: the booking path then joins the roster without reading the record again.
 */
export async function guestRecordForEmail(db: Conn, guest: { name: string; email: string }, now: Date): Promise<GuestRecord | null> {
  const email = normaliseEmail(guest.email);
  const k = kyselyOf(db);
  // One statement for a new guest; a known email (the insert does nothing) is then read.
  const inserted = await k
    .insertInto('users')
    .values(newGuestRecord(guest, now).row)
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(['id', 'name', 'email'])
    .executeTakeFirst();
  if (inserted) return inserted;
  return asGuest(await k.selectFrom('users').select(['id', 'role', 'name', 'email']).where('email', '=', email).executeTakeFirstOrThrow());
}

/**
 * The guest records a batch of bookings will use, found by their (normalised) emails in one read; an
 * email of a portal user answers null (a booking never links to a staff account). Emails with no record
 * are absent: `newGuestRecord` makes theirs.
 */
export async function guestRecordsByEmail(db: Conn, emails: readonly string[]): Promise<Map<string, GuestRecord | null>> {
  const wanted = [...new Set(emails.map(normaliseEmail))];
  const found = new Map<string, GuestRecord | null>();
  if (wanted.length === 0) return found;
  const rows = await kyselyOf(db).selectFrom('users').select(['id', 'role', 'name', 'email']).where('email', 'in', wanted).execute();
  for (const row of rows) found.set(row.email, asGuest(row));
  return found;
}

/**
 * A new guest record for a booking's contact details, not yet written: its row, for `guestRecordInserts`
 * (a batch writes them together, before the bookings that name them).
 */
export function newGuestRecord(guest: { name: string; email: string }, now: Date): { record: GuestRecord; row: Insertable<UsersTable> } {
  const row = userRow(orderedId('usr'), { role: 'guest', ...guest, password_hash: null, operator_id: null, role_id: null }, now);
  return { record: { id: row.id, name: row.name, email: row.email, made: true }, row };
}

/**
 * The statement writing new guest records (one: a batch holds a few dozen). An email another writer
 * recorded meanwhile keeps that record (the insert does nothing): a booking naming the id made here then
 * fails its foreign key, and the caller's batch is written again booking by booking, where
 * `guestRecordForEmail` finds the other record.
 */
function guestRecordInserts(db: Conn, rows: readonly Insertable<UsersTable>[]) {
  return [
    kyselyOf(db)
      .insertInto('users')
      .values([...rows])
      .onConflict((oc) => oc.column('email').doNothing()),
  ];
}

/** The name under which a batch's new guest records wait (`DeferredRows`): written before the rows that name them. */
export const NEW_GUEST_RECORDS = 'new guest records';

/**
 * The guest record for an anonymous booking's or sale's contact details (`guestRecordForEmail`), in a batch
 * whose records were read together (`guests`, from `guestRecordsByEmail`). With `deferred`, a new one is
 * made in memory and waits for the batch (written first, under NEW_GUEST_RECORDS); it is then the record of
 * every later booking in the batch by that email. Without either, it is found or made at once.
 */
export async function batchGuestRecord(
  db: Conn,
  guests: Map<string, GuestRecord | null> | undefined,
  deferred: DeferredRows | undefined,
  contact: { name: string; email: string },
  now: Date,
): Promise<GuestRecord | null> {
  const email = normaliseEmail(contact.email);
  const known = guests?.get(email);
  if (known !== undefined) return known;
  if (!guests || !deferred) {
    const record = await guestRecordForEmail(db, contact, now);
    guests?.set(email, record);
    return record;
  }
  const { record, row } = newGuestRecord(contact, now);
  deferred.collectStatements(NEW_GUEST_RECORDS, row, guestRecordInserts);
  guests.set(email, record);
  return record;
}

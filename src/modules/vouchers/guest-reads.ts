/**
 * Vouchers and the guest CRM: voucher recipients and purchasers join the issuing operator's roster (matched
 * to, or made, a guest record by email, as booking guests are), and the CRM reads and anonymises the
 * vouchers that name a guest's email at an operator's venues.
 */
import { sql } from 'kysely';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { guestForEmail, normaliseEmail } from '../auth/index.js';
import { joinRoster } from '../guests/index.js';

/** Joins each named person (with an email) to the roster of the venue's operator; same transaction as the vouchers. */
export async function rosterVoucherGuests(
  conn: Conn,
  venue: { id: string; operator_id: string },
  people: readonly { name: string | null; email: string | null }[],
  now: Date,
): Promise<void> {
  for (const person of people) {
    if (!person.email) continue;
    const email = normaliseEmail(person.email);
    const name = person.name?.trim() || email.split('@')[0];
    const userId = await guestForEmail(conn, { name, email }, now);
    await joinRoster(conn, { operatorId: venue.operator_id, venueId: venue.id, userId, at: now });
  }
}

export interface GuestVoucher {
  id: string;
  venue_id: string;
  code: string;
  amount_pence: number;
  remaining_pence: number;
  status: string;
  mode: string;
  /** How the email is named: `recipient` or `purchaser` (or both). */
  roles: string[];
  recipient_name: string | null;
  created_at: string;
}

/** The operator's vouchers (at `venueIds`, null: all) whose recipient or purchaser email is `email`, newest first. */
export async function guestVouchers(
  conn: Conn,
  /** Null: every operator's (the guest's own account, docs/account.md). */
  operatorId: string | null,
  venueIds: readonly string[] | null,
  email: string,
): Promise<GuestVoucher[]> {
  const address = normaliseEmail(email);
  let query = kyselyOf(conn)
    .selectFrom('vouchers')
    .leftJoin('voucher_purchases', 'voucher_purchases.id', 'vouchers.purchase_id')
    .select([
      'vouchers.id',
      'vouchers.venue_id',
      'vouchers.code',
      'vouchers.amount_pence',
      'vouchers.remaining_pence',
      'vouchers.status',
      'vouchers.mode',
      'vouchers.recipient_name',
      'vouchers.recipient_email',
      'voucher_purchases.purchaser_email',
      'vouchers.created_at',
    ])
    .where((eb) =>
      eb.or([eb(sql`lower(vouchers.recipient_email)`, '=', address), eb(sql`lower(voucher_purchases.purchaser_email)`, '=', address)]),
    );
  if (operatorId !== null) query = query.where('vouchers.operator_id', '=', operatorId);
  if (venueIds) query = query.where('vouchers.venue_id', 'in', venueIds.length > 0 ? [...venueIds] : ['']);
  const rows = await query.orderBy('vouchers.created_at', 'desc').orderBy('vouchers.id').execute();
  return rows.map(({ recipient_email, purchaser_email, ...row }) => ({
    ...row,
    roles: [
      ...(recipient_email?.toLowerCase() === address ? ['recipient'] : []),
      ...(purchaser_email?.toLowerCase() === address ? ['purchaser'] : []),
    ],
  }));
}

/**
 * Erasure: the operator's vouchers and voucher purchases naming `email` lose the person's name, email and
 * message; codes, balances, redemptions and payments stay. Answers the vouchers changed.
 */
export async function anonymiseGuestVouchers(conn: Conn, operatorId: string, email: string, now: Date): Promise<number> {
  const address = normaliseEmail(email);
  const k = kyselyOf(conn);
  const at = now.toISOString();
  const vouchers = await k
    .updateTable('vouchers')
    .set({ recipient_name: null, recipient_email: null, message: null, updated_at: at })
    .where('operator_id', '=', operatorId)
    .where(sql`lower(recipient_email)`, '=', address)
    .executeTakeFirst();
  await k
    .updateTable('voucher_purchases')
    .set({ recipient_name: null, recipient_email: null, message: null, updated_at: at })
    .where('operator_id', '=', operatorId)
    .where(sql`lower(recipient_email)`, '=', address)
    .execute();
  await k
    .updateTable('voucher_purchases')
    .set({ purchaser_name: null, purchaser_email: null, updated_at: at })
    .where('operator_id', '=', operatorId)
    .where(sql`lower(purchaser_email)`, '=', address)
    .execute();
  return Number(vouchers.numUpdatedRows);
}

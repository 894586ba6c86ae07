/** Booking rows as staff see them. */
import type { Conn } from '../../../db/transaction.js';
import { kyselyOf } from '../../../db/transaction.js';
import type { BookingDetail, BookingSummary } from './bookings.schemas.js';
import type { BookingRow } from '../core/booking-store.js';
import { historyOf } from '../core/history.js';

/** Table ids per booking, one query for a page of bookings. */
export async function tablesByBooking(db: Conn, bookingIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (bookingIds.length === 0) return out;
  const rows = await kyselyOf(db)
    .selectFrom('booking_tables')
    .select(['booking_id', 'table_id'])
    .where('booking_id', 'in', [...bookingIds])
    .orderBy('table_id')
    .execute();
  for (const row of rows) out.set(row.booking_id, [...(out.get(row.booking_id) ?? []), row.table_id]);
  return out;
}

export function toSummary(row: BookingRow, venueName: string, tableIds: string[]): BookingSummary {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status as BookingSummary['status'],
    guest_count: row.guest_count,
    booking_date: row.booking_date,
    venue_name: venueName,
    user_name: row.guest_name,
    venue_id: row.venue_id,
    kind: row.kind,
    rule_type: row.rule_type,
    access_rule_id: row.access_rule_id,
    start_time: row.start_time,
    duration_minutes: row.duration_minutes,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    guest_name: row.guest_name,
    guest_email: row.guest_email,
    guest_phone: row.guest_phone,
    table_ids: tableIds,
    table_locked: Boolean(row.table_locked),
    source: row.source,
    deposit_type: row.deposit_type,
    deposit_pence: row.deposit_pence,
    payment_status: row.payment_status,
    captured_pence: row.captured_pence,
    refunded_pence: row.refunded_pence,
    created_at: row.created_at,
    notes: row.notes,
    lifecycle: JSON.parse(row.lifecycle) as Record<string, string>,
    checked_in_at: row.checked_in_at,
    closed_at: row.closed_at,
    guest_confirmed_at: row.guest_confirmed_at,
  };
}

export async function toDetail(db: Conn, row: BookingRow, venueName: string): Promise<BookingDetail> {
  const [tables, history] = await Promise.all([tablesByBooking(db, [row.id]), historyOf(db, row.id)]);
  return {
    ...toSummary(row, venueName, tables.get(row.id) ?? []),
    bundle_selections: JSON.parse(row.bundle_selections) as BookingDetail['bundle_selections'],
    cancelled_at: row.cancelled_at,
    cancel_reason: row.cancel_reason,
    payment_expires_at: row.payment_expires_at,
    history,
  };
}

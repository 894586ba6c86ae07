/**
 * A guest's activity at the caller's venues, newest first: their bookings' history (created, each status
 * change such as check-in or cancellation, other staff actions), vouchers naming their email, and the
 * CRM's own items (tag changes, the walk-in record).
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { GuestScope } from './roster.repository.js';
import type { GuestSources } from './sources.js';

export interface ActivityItem {
  type: string;
  at: string;
  summary: string;
  venue_id: string | null;
  venue_name: string | null;
  booking_id: string | null;
}

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
const words = (text: string) => text.replace(/_/g, ' ');

export async function activityItems(
  conn: Conn,
  sources: Pick<GuestSources, 'bookingActivity' | 'vouchers'>,
  scope: GuestScope,
  email: string,
  userId: string,
  limit: number,
  venueNames: (ids: string[]) => Promise<Map<string, string>>,
): Promise<ActivityItem[]> {
  let own = kyselyOf(conn)
    .selectFrom('guest_activity')
    .selectAll()
    .where('operator_id', '=', scope.operatorId)
    .where('user_id', '=', userId);
  if (scope.venueIds) {
    const venueIds = scope.venueIds.length > 0 ? [...scope.venueIds] : [''];
    own = own.where((eb) => eb.or([eb('venue_id', 'is', null), eb('venue_id', 'in', venueIds)]));
  }
  const [events, vouchers, crm] = await Promise.all([
    sources.bookingActivity(conn, scope.operatorId, scope.venueIds, userId, limit),
    sources.vouchers(conn, scope.operatorId, scope.venueIds, email),
    own.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
  ]);
  const items: (Omit<ActivityItem, 'venue_name'> & { order: string })[] = [
    ...events.map((e) => ({
      type: e.action === 'create' ? 'booking_created' : e.to_status ? `booking_${e.to_status}` : `booking_${e.action}`,
      at: e.at,
      summary:
        e.action === 'create'
          ? `Booking for ${e.booking_date} made${e.to_status ? ` (${words(e.to_status)})` : ''}`
          : `Booking for ${e.booking_date}: ${words(e.to_status ?? e.action)}`,
      venue_id: e.venue_id,
      booking_id: e.booking_id,
      order: 'b',
    })),
    ...vouchers.slice(0, limit).map((v) => ({
      type: 'voucher',
      at: v.created_at,
      summary: `Voucher of ${pounds(v.amount_pence)} (${v.roles.join(' and ')})`,
      venue_id: v.venue_id,
      booking_id: null,
      order: 'v',
    })),
    ...crm.map((row) => {
      const detail = JSON.parse(row.detail) as { scope?: string; added?: string[]; removed?: string[] };
      const changes = [...(detail.added ?? []).map((t) => `+${t}`), ...(detail.removed ?? []).map((t) => `-${t}`)].join(', ');
      return {
        type: row.kind,
        at: row.at,
        summary: row.kind === 'walk_in' ? 'Walk-in record created' : `Tags changed (${detail.scope ?? 'global'}): ${changes}`,
        venue_id: row.venue_id,
        booking_id: null,
        order: `c${row.id}`,
      };
    }),
  ];
  items.sort((a, b) => (a.at === b.at ? (a.order < b.order ? 1 : -1) : a.at < b.at ? 1 : -1));
  const latest = items.slice(0, limit);
  const names = await venueNames(latest.flatMap((i) => (i.venue_id ? [i.venue_id] : [])));
  return latest.map(({ order: _order, ...item }) => ({ ...item, venue_name: item.venue_id ? (names.get(item.venue_id) ?? null) : null }));
}

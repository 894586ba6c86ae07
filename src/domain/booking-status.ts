/**
 * Booking statuses and the moves between them (decisions: booking statuses). Pure: the service asks
 * `canMove` before it writes, and answers a refused move with 409 naming the current status.
 *
 *   pending ─approve→ approved ─(check-in)→ checked_in
 *      │                 │
 *      ├─confirm→ confirmed ─(check-in)→ checked_in
 *      │                 └→ no_show
 *      ├─reject→ rejected ─unreject→ pending
 *      └─cancel→ cancelled
 *   pending_payment ─paid→ confirmed | ─unpaid/expired→ expired | ─cancel→ cancelled
 *   approved/confirmed/pending ─door reject→ door_rejected
 *
 * Check-in only from approved or confirmed. Cancelled, expired, door-rejected and no-show are final;
 * rejected only returns to pending (unreject). Checked-in is final except for a door reject after the
 * fact (a guest turned away once inside is recorded as such).
 */
export const BOOKING_STATUSES = [
  'pending',
  'pending_payment',
  'approved',
  'confirmed',
  'checked_in',
  'cancelled',
  'rejected',
  'expired',
  'door_rejected',
  'no_show',
] as const;

export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Statuses that hold a table and capacity. */
export const ACTIVE_STATUSES: readonly BookingStatus[] = ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in'];

export const isActive = (status: string) => (ACTIVE_STATUSES as readonly string[]).includes(status);

const MOVES: Readonly<Record<BookingStatus, readonly BookingStatus[]>> = {
  pending: ['approved', 'confirmed', 'rejected', 'cancelled', 'door_rejected', 'no_show'],
  pending_payment: ['confirmed', 'expired', 'cancelled'],
  approved: ['confirmed', 'checked_in', 'rejected', 'cancelled', 'door_rejected', 'no_show'],
  confirmed: ['checked_in', 'cancelled', 'door_rejected', 'no_show'],
  checked_in: ['door_rejected'],
  rejected: ['pending'],
  cancelled: [],
  expired: [],
  door_rejected: [],
  no_show: [],
};

export function canMove(from: string, to: BookingStatus): boolean {
  return (MOVES[from as BookingStatus] ?? []).includes(to);
}

/** The 409 message for a refused move. */
export const refusedMoveMessage = (current: string, action: string) =>
  `This booking is ${current.replace('_', ' ')}: it cannot be ${action}`;

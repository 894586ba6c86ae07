/**
 * The domain events of the booking record (platform/domain-events.ts; the webhooks' `booking.*`
 * events, docs/webhooks.md): the booking as it is after the change, in the fields a venue's own systems
 * need (no payment intents, keys or internal flags).
 */
import type { Insertable, Selectable } from 'kysely';
import type { DomainEvent, DomainEventType } from '../../../platform/domain-events.js';
import type { BookingsTable } from './bookings.table.js';

type BookingFields = Selectable<BookingsTable> | (Insertable<BookingsTable> & { id: string; venue_id: string });

export function bookingEvent(type: DomainEventType, booking: BookingFields, at: Date | string): DomainEvent {
  return {
    type,
    operatorId: booking.operator_id,
    venueId: booking.venue_id,
    at: typeof at === 'string' ? at : at.toISOString(),
    data: {
      object: 'booking',
      id: booking.id,
      reference: booking.reference ?? null,
      venue_id: booking.venue_id,
      kind: booking.kind,
      status: booking.status,
      source: booking.source ?? null,
      event_id: booking.event_id ?? null,
      date: booking.booking_date,
      time: booking.start_time ?? null,
      starts_at: booking.starts_at ?? null,
      ends_at: booking.ends_at ?? null,
      duration_minutes: booking.duration_minutes ?? null,
      guest_count: booking.guest_count ?? 1,
      guest_name: booking.guest_name ?? null,
      guest_email: booking.guest_email ?? null,
      guest_phone: booking.guest_phone ?? null,
      notes: booking.notes ?? null,
      total_pence: booking.total_pence ?? 0,
      checked_in_at: booking.checked_in_at ?? null,
      cancelled_at: booking.cancelled_at ?? null,
      cancel_reason: booking.cancel_reason ?? null,
      created_at: booking.created_at,
      updated_at: booking.updated_at,
    },
  };
}

/** The event a move to `status` announces. */
export const statusEventType = (status: string): DomainEventType =>
  status === 'cancelled' ? 'booking.cancelled' : status === 'checked_in' ? 'booking.checked_in' : 'booking.updated';

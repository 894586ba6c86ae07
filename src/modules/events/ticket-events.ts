/** The ticket sale's domain event (platform/domain-events.ts; the webhooks' `ticket.sold`, docs/webhooks.md). */
import type { DomainEvent } from '../../platform/domain-events.js';
import type { SoldEventBooking } from '../bookings/index.js';
import type { TicketRow } from './events.repository.js';

/** Tickets confirmed (free at the sale, paid at the payment's fulfilment): the booking, its event and its tickets. */
export function ticketSoldEvent(
  booking: SoldEventBooking,
  ticket: Pick<TicketRow, 'event_id' | 'ticket_type_id' | 'quantity' | 'unit_price_pence'>,
  at: Date,
): DomainEvent {
  return {
    type: 'ticket.sold',
    operatorId: booking.operator_id,
    venueId: booking.venue_id,
    at: at.toISOString(),
    data: {
      object: 'ticket_sale',
      booking_id: booking.id,
      reference: booking.reference,
      event_id: ticket.event_id,
      ticket_type_id: ticket.ticket_type_id,
      quantity: ticket.quantity,
      unit_price_pence: ticket.unit_price_pence,
      total_pence: booking.total_pence,
      guest_name: booking.guest_name,
      guest_email: booking.guest_email,
      date: booking.booking_date,
      time: booking.start_time,
    },
  };
}

/** The last step: the booking as confirmed, its QR code and short reference, a calendar file and the link to view or cancel it. */
import { dateLabel } from '../lib/format';
import { bookingIcs, icsHref } from '../lib/ics';
import { BookingQr } from '../ui/Qr';
import type { BookingConfig } from './types';
import type { State } from './visit-state';

export function Confirmation(props: { config: BookingConfig; venueId: string; state: State; onAgain: () => void }) {
  const { config, state } = props;
  const bookingId = state.pending!.bookingId;
  const ics = bookingIcs({
    id: bookingId,
    venueName: config.venue.name,
    address: config.venue.address,
    timezone: config.venue.timezone,
    date: state.date,
    time: state.slot?.time ?? '00:00',
    minutes: config.booking.default_booking_duration,
    summary: `Table for ${state.partySize} at ${config.venue.name}`,
  });
  return (
    <section class="mw-step mw-done">
      <p class="mw-summary">
        <span aria-hidden="true">✓ </span>
        {dateLabel(state.date)} at {state.slot?.time}, table for {state.partySize}.
        {state.pending?.status === 'pending' ? ' The venue will confirm your booking.' : ''} A confirmation is on its way to{' '}
        {state.details.email}, with a link to view or cancel it.
      </p>
      <BookingQr venueId={props.venueId} bookingId={bookingId} />
      <p>
        <a class="mw-secondary-link" href={icsHref(ics)} download="booking.ics">
          Add to calendar (.ics)
        </a>
      </p>
      {state.pending?.manageUrl ? (
        <p>
          <a class="mw-secondary-link" href={state.pending.manageUrl} target="_blank" rel="noopener">
            View or cancel this booking<span class="mw-sr"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
      <p class="mw-reference">
        Booking reference <strong>{state.pending?.reference ?? bookingId}</strong>
        <span class="mw-hint"> — give it at the door if you cannot show the code.</span>
      </p>
      <button type="button" class="mw-link" onClick={props.onAgain}>
        Make another booking
      </button>
    </section>
  );
}

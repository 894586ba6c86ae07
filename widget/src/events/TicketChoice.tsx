/**
 * The ticket types of an event in the events widget (EventsApp.tsx): one choice each, with its price (the
 * member price beside the price for others when it is lower), what is left, and whether the venue confirms.
 */
import { money } from '../lib/format';

export interface TicketType {
  id: string;
  name: string;
  price_pence: number;
  remaining: number | null;
  max_per_order: number;
  sold_out: boolean;
  requires_confirmation: boolean;
  /** The signed-in member's price (null: not signed in, or not a member of the venue's group). */
  member_price_pence: number | null;
}

export function TicketChoice(props: { ticketTypes: TicketType[]; chosenId: string | null; onChoose: (ticketTypeId: string) => void }) {
  return (
    <fieldset>
      <legend>Ticket</legend>
      {props.ticketTypes.map((ticket) => (
        <label class="mw-choice" key={ticket.id}>
          <input
            type="radio"
            name="ticket"
            disabled={ticket.sold_out}
            checked={props.chosenId === ticket.id}
            onChange={() => props.onChoose(ticket.id)}
          />
          <span>
            {ticket.name} —{' '}
            {ticket.member_price_pence !== null && ticket.member_price_pence < ticket.price_pence
              ? `${money(ticket.member_price_pence)} member price, ${money(ticket.price_pence)} for others`
              : ticket.price_pence === 0
                ? 'free'
                : money(ticket.price_pence)}
            {ticket.sold_out ? ' (sold out)' : ticket.remaining !== null ? ` (${ticket.remaining} left)` : ''}
            {ticket.requires_confirmation ? ' · the venue confirms' : ''}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

import type { Availability, Slot } from './types';
import { dateLabel } from '../lib/format';

/** The slots a guest may pick: available, of a rule shown to guests, and not just refused. */
export function openSlots(answer: Availability, refused?: string | null) {
  const rules = new Set(answer.rules.map((rule) => rule.id));
  return answer.slots.filter(
    (slot) => slot.available && rules.has(slot.access_rule_id) && `${slot.access_rule_id}|${slot.time}` !== refused,
  );
}

/** The times on offer, each button named in full ("19:00, table for 4"); or what to do when there are none. */
export function Slots(props: {
  answer: Availability;
  partySize: number;
  /** A slot (`rule|time`) just refused: not offered again. */
  refused?: string | null;
  venuePhone?: string | null;
  onPick: (slot: Slot) => void;
  onDate: (date: string) => void;
}) {
  const { answer } = props;
  const rules = new Map(answer.rules.map((rule) => [rule.id, rule]));
  const open = openSlots(answer, props.refused);
  const several = new Set(open.map((slot) => slot.access_rule_id)).size > 1;
  const people = props.partySize === 1 ? 'table for 1' : `table for ${props.partySize}`;
  if (answer.party_too_large) {
    return (
      <div class="mw-empty">
        <p>
          We can't take a party of {props.partySize} online.{' '}
          {props.venuePhone ? (
            <>
              Please call the venue on <a href={`tel:${props.venuePhone.replace(/\s+/g, '')}`}>{props.venuePhone}</a>.
            </>
          ) : (
            'Please contact the venue.'
          )}
        </p>
      </div>
    );
  }
  if (open.length === 0) {
    return (
      <div class="mw-empty">
        <p>No tables are free on {dateLabel(answer.date)}.</p>
        {answer.next_available_dates.length > 0 ? (
          <>
            <p>The next dates with free tables:</p>
            <ul class="mw-chips">
              {answer.next_available_dates.map((date) => (
                <li key={date}>
                  <button type="button" class="mw-chip" onClick={() => props.onDate(date)}>
                    {dateLabel(date)}
                  </button>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    );
  }
  return (
    <ul class="mw-slots">
      {open.map((slot) => {
        const rule = rules.get(slot.access_rule_id)!;
        const ruleName = rule.display_title ?? rule.name;
        return (
          <li key={`${slot.access_rule_id}-${slot.time}`}>
            <button
              type="button"
              class="mw-slot"
              aria-label={several ? `${slot.time}, ${ruleName}, ${people}` : `${slot.time}, ${people}`}
              onClick={() => props.onPick({ time: slot.time, rule })}
            >
              <span class="mw-slot-time">{slot.time}</span>
              {several ? <span class="mw-slot-rule">{ruleName}</span> : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * How a ticket type is offered to guests (decisions: Events), from its ticket profile and admission group:
 * - profile `visibility` `hidden` or `private`: not offered publicly (absent from booking options; 404 to buy);
 *   `approval`: every purchase is a request the venue approves (`requires_confirmation`); anything else: public;
 * - profile booking window (when enabled): sales open `booking_start_*` before the event starts and close
 *   `booking_cutoff_*` before it (409 outside);
 * - profile `show_capacity` false: the remaining count is not shown (`remaining` null);
 * - admission group: the guest's purchase needs the venue's approval unless a rule of the group that the
 *   guest meets auto-approves; the best matching discount applies to the ticket price. Only a signed-in
 *   guest's standing counts; an anonymous buyer is judged as a first-time guest.
 */
import { evaluateAdmission, type AdmissionRule } from '../../domain/admission.js';
import { localToUtc, shiftInstant } from '../../domain/venue-time.js';
import type { Conn } from '../../db/transaction.js';
import type { EventRow } from './events.repository.js';

export type TicketProfile = { id: string } & Record<string, unknown>;

export interface OfferTerms {
  hidden: boolean;
  needsApproval: boolean;
  showCapacity: boolean;
  /** Why tickets are not on sale right now (booking window), or null. */
  closedReason: string | null;
}

export function offerTerms(profile: TicketProfile | undefined, event: EventRow, timezone: string, now: Date): OfferTerms {
  const visibility = typeof profile?.visibility === 'string' ? profile.visibility.toLowerCase() : 'public';
  let closedReason: string | null = null;
  if (profile?.booking_window_enabled) {
    const starts = localToUtc(event.event_date, event.start_time ?? '00:00', timezone);
    const value = (key: string) => (typeof profile[key] === 'number' ? (profile[key] as number) : null);
    const unit = (key: string) => (typeof profile[key] === 'string' ? (profile[key] as string) : 'hours');
    const opens = value('booking_start_value');
    const cutoff = value('booking_cutoff_value');
    if (opens !== null && now < shiftInstant(starts, -opens, unit('booking_start_unit'), timezone))
      closedReason = 'Tickets are not on sale yet';
    if (cutoff !== null && now >= shiftInstant(starts, -cutoff, unit('booking_cutoff_unit'), timezone))
      closedReason = 'Ticket sales have closed';
  }
  return {
    hidden: visibility === 'hidden' || visibility === 'private',
    needsApproval: visibility === 'approval',
    showCapacity: profile?.show_capacity !== false,
    closedReason,
  };
}

/** A ticket price with `pct` percent off, to the nearest penny (admission and member discounts alike). */
export const discounted = (pricePence: number, pct: number) => Math.round((pricePence * (100 - pct)) / 100);

export interface AdmissionSources {
  rules(conn: Conn, venueId: string, groupId: string): Promise<AdmissionRule[]>;
  /** The guest's tags and connections at the operator (the guests module's). */
  facts(conn: Conn, operatorId: string, venueId: string, userId: string): Promise<{ tags: string[]; connections: number }>;
  /** The guest's visits to the venue (the bookings module's). */
  visits(conn: Conn, venueId: string, userId: string): Promise<number>;
}

/** A guest with no tags, visits or connections: how an anonymous buyer is judged, whatever email they typed. */
const FIRST_TIMER = { facts: { tags: [] as string[], connections: 0 }, visits: 0 };

/**
 * What the ticket type's admission group decides for this guest: approval needed, and the discount earned.
 * The guest's standing counts only when they are `identified` (signed in); otherwise they are judged as a
 * first-time guest (a typed email is a contact address, never proof of identity).
 */
export async function admissionFor(
  conn: Conn,
  sources: AdmissionSources,
  input: { groupId: string; operatorId: string; venueId: string; userId: string | null; identified: boolean; maxPlusOnes: number },
): Promise<{ needsApproval: boolean; discountPct: number }> {
  const rules = await sources.rules(conn, input.venueId, input.groupId);
  if (rules.length === 0 || !input.userId) return { needsApproval: true, discountPct: 0 };
  const userId = input.userId;
  const [facts, visits] = input.identified
    ? await Promise.all([sources.facts(conn, input.operatorId, input.venueId, userId), sources.visits(conn, input.venueId, userId)])
    : [FIRST_TIMER.facts, FIRST_TIMER.visits];
  const decision = evaluateAdmission(
    rules,
    { tags: facts.tags, connections: facts.connections, bookings: visits },
    { maxPlusOnes: input.maxPlusOnes },
  );
  return { needsApproval: !decision.auto_approve, discountPct: decision.discount_pct };
}

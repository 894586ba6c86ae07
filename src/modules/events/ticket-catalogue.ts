/**
 * What guests read about a venue's events (spec: Public widget endpoints): the what's-on listing of a
 * live venue (approved public events from today on, venue-local) and an event's booking options (ticket
 * types on offer with what is left, the bundles that apply to events, the venue's events policy).
 */
import { localToday } from '../../domain/venue-time.js';
import type { Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import { notFound } from '../../platform/errors.js';
import { VenueCache } from '../../platform/venue-cache.js';
import { activeEventBookings } from '../bookings/index.js';
import { eventById, ticketsHeld, ticketTypesOf, upcomingApproved, type EventRow, type TicketTypeRow } from './events.repository.js';
import { parseAttribution } from './events.service.js';
import { discounted, offerTerms } from './ticket-offers.js';
import type { TicketSalesDeps } from './ticket-sales.deps.js';

const publicFields = (event: EventRow) => ({
  id: event.id,
  name: event.name,
  event_date: event.event_date,
  start_time: event.start_time,
  end_time: event.end_time,
  last_entry_time: event.last_entry_time,
  event_type: event.event_type,
  event_genre: event.event_genre,
  description: event.description,
  image_url: event.image_url,
  image_attribution: parseAttribution(event.image_attribution),
});

/** How long a public event and its venue are served from memory without a change of the venue. */
const PUBLIC_EVENT_TTL_MS = 5_000;
/** Events whose venue is remembered (an event never moves venue): the oldest are forgotten first. */
const EVENT_VENUES_KEPT = 20_000;

export function createTicketCatalogue(deps: TicketSalesDeps) {
  const { db, clock } = deps;
  // An on-sale's thousands of requests read the same event and venue: from memory, until the venue's
  // configuration changes (the change feed, on every instance) or PUBLIC_EVENT_TTL_MS pass. What a sale
  // relies on is read again in its transaction.
  const publicEvents = new VenueCache<{ event: EventRow; venue: VenueRow } | null>(db.changes, clock, {
    ttlMs: PUBLIC_EVENT_TTL_MS,
    maxEntries: 5_000,
    scope: 'configuration',
  });
  const venueOfEvent = new Map<string, string>();
  // The ticket types of an event on sale, for the sold-out check before any transaction (a change to a type
  // marks every venue's configuration changed: ticket_types has no venue column).
  const eventTypes = new VenueCache<TicketTypeRow[]>(db.changes, clock, {
    ttlMs: PUBLIC_EVENT_TTL_MS,
    maxEntries: 5_000,
    scope: 'configuration',
  });

  async function readPublicEvent(eventId: string): Promise<{ event: EventRow; venue: VenueRow } | null> {
    const event = await eventById(db, eventId);
    const venue = event ? await deps.liveVenue(db, event.venue_id) : undefined;
    return event && venue ? { event, venue } : null;
  }

  /** Tickets per type held by the given active bookings. */
  const heldOf = (conn: Conn, eventId: string, active: { id: string }[]) =>
    ticketsHeld(
      conn,
      eventId,
      active.map((b) => b.id),
    );

  async function liveVenueOrThrow(venueId: string): Promise<VenueRow> {
    const venue = await deps.liveVenue(db, venueId);
    if (!venue) throw notFound('Venue');
    return venue;
  }

  /** An approved, public, upcoming event of a live venue; 404 otherwise. */
  async function publicEvent(eventId: string): Promise<{ event: EventRow; venue: VenueRow }> {
    const knownVenue = venueOfEvent.get(eventId);
    const found = knownVenue ? await publicEvents.get(knownVenue, eventId, () => readPublicEvent(eventId)) : await readPublicEvent(eventId);
    if (found && !knownVenue) {
      if (venueOfEvent.size >= EVENT_VENUES_KEPT) venueOfEvent.delete(venueOfEvent.keys().next().value!);
      venueOfEvent.set(eventId, found.event.venue_id);
    }
    const { event, venue } = found ?? {};
    if (!event || !venue || event.status !== 'approved' || event.visibility !== 'public') throw notFound('Event');
    if (event.event_date < localToday(clock.now(), venue.timezone)) throw notFound('Event');
    return { event, venue };
  }

  /** The ticket types on offer with what is left of each (null: unlimited or not shown). */
  async function offers(event: EventRow, venue: VenueRow, types: TicketTypeRow[]) {
    const [profiles, active] = await Promise.all([deps.ticketProfiles(db, venue.id), activeEventBookings(db, event.id)]);
    const held = await heldOf(db, event.id, active);
    const guestsLeft =
      event.guest_list_capacity === null
        ? null
        : Math.max(0, event.guest_list_capacity - active.reduce((sum, b) => sum + b.guest_count, 0));
    const now = clock.now();
    return types.flatMap((type) => {
      const terms = offerTerms(
        profiles.find((p) => p.id === type.ticket_profile_id),
        event,
        venue.timezone,
        now,
      );
      if (terms.hidden) return [];
      const typeLeft = type.capacity === null ? null : Math.max(0, type.capacity - (held.get(type.id) ?? 0));
      const left = typeLeft === null ? guestsLeft : guestsLeft === null ? typeLeft : Math.min(typeLeft, guestsLeft);
      return [
        {
          id: type.id,
          name: type.name,
          price_pence: type.price_pence,
          remaining: terms.showCapacity ? left : null,
          sold_out: left === 0 || terms.closedReason !== null,
          requires_confirmation: terms.needsApproval || Boolean(type.admission_rule_group_id),
          max_per_order: type.max_per_order,
        },
      ];
    });
  }

  /** One ticket type of an event of `venueId`, from memory until the configuration changes (the sale re-reads it). */
  async function ticketType(venueId: string, eventId: string, typeId: string): Promise<TicketTypeRow | undefined> {
    const types = await eventTypes.get(venueId, eventId, () => ticketTypesOf(db, [eventId]));
    return types.find((type) => type.id === typeId);
  }

  return {
    publicEvent,
    ticketType,
    heldOf,
    reads: {
      async eventsWidget(venueId: string) {
        const venue = await liveVenueOrThrow(venueId);
        const events = await upcomingApproved(db, venue.id, localToday(clock.now(), venue.timezone));
        const types = await ticketTypesOf(
          db,
          events.map((e) => e.id),
        );
        const listed = [];
        for (const event of events) {
          const offered = await offers(
            event,
            venue,
            types.filter((t) => t.event_id === event.id),
          );
          const prices = offered.map((o) => o.price_pence);
          listed.push({
            ...publicFields(event),
            from_price_pence: prices.length > 0 ? Math.min(...prices) : null,
            sold_out: offered.length > 0 && offered.every((o) => o.sold_out),
          });
        }
        return { venue: { id: venue.id, name: venue.name, timezone: venue.timezone }, events: listed };
      },

      /** `guestId`: the signed-in guest asking; a member of the venue's operator sees the member price of each type. */
      async bookingOptions(eventId: string, guestId: string | null = null) {
        const { event, venue } = await publicEvent(eventId);
        const [types, bundles, policy, memberPct] = await Promise.all([
          ticketTypesOf(db, [event.id]),
          deps.eventBundles(venue.id),
          deps.eventsPolicy(venue.id),
          guestId ? deps.memberDiscountPct(db, venue.operator_id, guestId) : 0,
        ]);
        const offered = await offers(event, venue, types);
        return {
          event: { ...publicFields(event), venue_id: venue.id, venue_name: venue.name },
          ticket_types: offered.map((o) => ({ ...o, member_price_pence: memberPct > 0 ? discounted(o.price_pence, memberPct) : null })),
          bundles,
          policy,
          publishable_key: deps.payments.publishableKey,
        };
      },
    },
  };
}

/**
 * Guests buying tickets (spec: Public widget endpoints, event rows): the what's-on listing, booking
 * options, create-intent and finalize, and the `event_booking` fulfilments.
 *
 * A sale runs in one transaction holding the event's lock (PostgreSQL advisory lock, so every server
 * instance sharing the database queues on it; SQLite has one writer): the event and ticket type are
 * re-read, the places held by the event's active bookings (awaiting payment or approval included) are
 * counted against the event's guest_list_capacity and the ticket type's capacity, and only then is the
 * booking written. Neither capacity can be oversold however many requests race. Tickets count while
 * their booking is active, so a reservation released unpaid (finalize, the provider's expiry event, or
 * the bookings module's expiry sweep) gives its tickets back at once.
 */
import type { Kysely } from 'kysely';
import { signQrToken } from '../../domain/booking-tokens/index.js';
import { localToUtc } from '../../domain/venue-time.js';
import type { Database } from '../../db/schema.js';
import { DeferredRows } from '../../db/deferred-rows.js';
import { GroupCommit, type JobControl } from '../../db/group-commit.js';
import { afterCommit, lockKey, type Conn } from '../../db/transaction.js';
import { VenueCache } from '../../platform/venue-cache.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import { domainEvents } from '../../platform/domain-events.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { orderedId } from '../../platform/ids.js';
import { metrics } from '../../platform/metrics.js';
import { batchGuestRecord, guestRecordsByEmail, NEW_GUEST_RECORDS, type GuestRecord } from '../auth/index.js';
import {
  activeEventBookings,
  attachEventIntent,
  eventBooking,
  eventBookingByIntent,
  answeredOnce,
  idempotentIn,
  insertEventBooking,
  PAYMENT_WINDOW_MS,
  payableBooking,
  checkUnpaidHolds,
  type EventBookingRow,
  type IdempotentRequest,
} from '../bookings/index.js';
import type { CheckoutSpec } from '../payments/index.js';
import { eventById, insertTicket, ticketOfBooking, ticketTypeOf, type EventRow, type TicketTypeRow } from './events.repository.js';
import type { CreateIntentBody, CreateIntentResult } from './events.schemas.js';
import { eventLock } from './events.service.js';
import { admissionFor, discounted, offerTerms, type TicketProfile } from './ticket-offers.js';
import { deferTicketMail, queueRequestMail, queueTicketMail, ticketTokenExpiry } from './ticket-mail.js';
import { createTicketCatalogue } from './ticket-catalogue.js';
import { ticketSoldEvent } from './ticket-events.js';
import type { TicketSalesDeps } from './ticket-sales.deps.js';

export type { TicketSalesDeps };

export const SOLD_OUT = 'Not enough tickets left';

/**
 * Tickets let on to an event's transaction at once: as many as the cached picture has left, and up to
 * twice that but no more than this (`inFlightFor`). The rest wait for the batch being written and ask the
 * picture again, so that once the event sells out they are refused from it rather than by the
 * transaction's re-check after queueing behind the sales.
 */
const MIN_TICKETS_IN_FLIGHT = 64;

/** The places an event's active bookings hold. */
interface Held {
  guests: number;
  byType: Map<string, number>;
}

/** One purchase waiting for its transaction. */
interface Sale {
  venue: VenueRow;
  event: EventRow;
  body: CreateIntentBody;
  prepared: { bookingId: string; qrToken: string; address: string };
  guestId: string | null;
  idempotency: IdempotentRequest;
}

/**
 * What the sales of one transaction read once and share: the event, its ticket types and the venue's
 * ticket profiles, read under the event's lock (so as current as a read per sale) and never written by a sale.
 */
interface BatchReads {
  held?: Promise<Held>;
  event?: Promise<EventRow | undefined>;
  profiles?: Promise<TicketProfile[]>;
  types: Map<string, Promise<TicketTypeRow | undefined>>;
  /** (A batch of several) the rows its confirmed free sales leave to it, written before it commits. */
  rows?: DeferredRows;
  /** (A batch of several) the guest records of its anonymous buyers' emails, read together; new ones as they are made. */
  guests?: Map<string, GuestRecord | null>;
}

interface SaleAnswer {
  booking_id: string;
  status: string;
  amount_pence: number;
}

export function createTicketSales(deps: TicketSalesDeps) {
  const { db, clock, payments, eventBookings } = deps;
  const catalogue = createTicketCatalogue(deps);

  /** Tickets of a booking confirmed just now: the mail with its QR code, in the confirming transaction. */
  async function mailTickets(trx: Conn, booking: EventBookingRow): Promise<void> {
    const [venue, event, ticket] = await Promise.all([
      deps.liveVenue(trx, booking.venue_id),
      eventById(trx, booking.event_id!),
      ticketOfBooking(trx, booking.id),
    ]);
    if (ticket) await domainEvents.emit(trx, ticketSoldEvent(booking, ticket, clock.now()));
    if (!venue || !event || !ticket) return;
    await deps.ticketSold?.(trx, {
      eventId: event.id,
      venueId: venue.id,
      promoterId: event.promoter_id,
      bookingId: booking.id,
      amountPence: booking.total_pence ?? 0,
    });
    const type = await ticketTypeOf(trx, event.id, ticket.ticket_type_id);
    await queueTicketMail(trx, deps.mail, { venue, event, booking, ticket, ticketName: type?.name ?? 'Ticket' });
  }

  /**
   * The sale itself, in the batch's transaction under the event's lock (see the top comment): the event,
   * the ticket type and the profiles come from the batch's reads, made under that lock.
   */
  async function sell(
    trx: Kysely<Database>,
    venue: VenueRow,
    eventId: string,
    body: CreateIntentBody,
    prepared: { bookingId: string; qrToken: string; address: string },
    guestId: string | null,
    held: Held,
    reads: BatchReads,
    control: JobControl,
  ) {
    const now = clock.now();
    const event = await (reads.event ??= eventById(trx, eventId));
    if (!event || event.status !== 'approved') throw conflict('Tickets for this event are no longer on sale');
    const { selection } = body;
    let typeRead = reads.types.get(selection.ticket_type_id);
    if (!typeRead) reads.types.set(selection.ticket_type_id, (typeRead = ticketTypeOf(trx, event.id, selection.ticket_type_id)));
    const type = await typeRead;
    const profiles = await (reads.profiles ??= deps.ticketProfiles(trx, venue.id));
    const terms = offerTerms(
      profiles.find((p) => p.id === type?.ticket_profile_id),
      event,
      venue.timezone,
      now,
    );
    if (!type || terms.hidden) throw notFound('Ticket type');
    if (terms.closedReason) throw conflict(terms.closedReason);
    if (selection.quantity > type.max_per_order) {
      throw badRequest(`At most ${type.max_per_order} tickets of this type per order`, { max_per_order: type.max_per_order });
    }

    refuseSoldOut(event, type, selection.quantity, held, 'transaction');
    // Every refusal above comes before the sale's first write: a refused sale leaves nothing to roll back. A
    // failure from here on (the unpaid holds' limit included) sends the batch back to one sale at a time.
    control.decided();

    // An anonymous free ticket with nothing to approve is confirmed whoever buys it: in a batch of several its
    // rows (its new guest record included) wait for the batch.
    const deferred = !guestId && !type.admission_rule_group_id && !terms.needsApproval && type.price_pence === 0 ? reads.rows : undefined;
    // A signed-in guest buys as themselves. Anyone else's typed email is a contact address only: the booking is
    // filed under that address's guest record, but its standing (tags, visits) earns nothing (decisions: Security round 2).
    const contact = { name: body.guest_name, email: body.guest_email };
    const guest = guestId ? undefined : await batchGuestRecord(trx, reads.guests, deferred, contact, now);
    const userId = guestId ?? guest?.id ?? null;
    const admission = type.admission_rule_group_id
      ? await admissionFor(trx, deps.admission, {
          groupId: type.admission_rule_group_id,
          operatorId: venue.operator_id,
          venueId: venue.id,
          userId,
          identified: guestId !== null,
          maxPlusOnes: venue.max_plus_ones,
        })
      : { needsApproval: false, discountPct: 0 };
    // A signed-in member of the operator gets the member price; the more generous of it and an admission discount applies.
    const memberPct = guestId ? await deps.memberDiscountPct(trx, venue.operator_id, guestId) : 0;
    const discountPct = Math.max(admission.discountPct, memberPct);
    const unit = discounted(type.price_pence, discountPct);
    const total = unit * selection.quantity;
    const status = terms.needsApproval || admission.needsApproval ? 'pending' : total === 0 ? 'confirmed' : 'pending_payment';
    if (status === 'pending_payment') {
      await checkUnpaidHolds(db, trx, { venueId: venue.id, address: prepared.address, email: body.guest_email, now });
    }
    // What waits for the batch: a confirmed sale's rows (the terms above make every deferred sale one).
    const rows = status === 'confirmed' ? deferred : undefined;
    const startsAt = event.start_time ? localToUtc(event.event_date, event.start_time, venue.timezone).toISOString() : null;
    const booking = await insertEventBooking(
      trx,
      {
        id: prepared.bookingId,
        operatorId: venue.operator_id,
        venueId: venue.id,
        eventId: event.id,
        date: event.event_date,
        startTime: event.start_time,
        startsAt,
        endsAt: null,
        guestCount: selection.quantity,
        guestName: body.guest_name.trim(),
        guestEmail: body.guest_email.trim(),
        userId,
        guest: guest ?? undefined,
        totalPence: total,
        status,
        paymentExpiresAt: status === 'pending_payment' ? new Date(now.getTime() + PAYMENT_WINDOW_MS).toISOString() : null,
        holdAddress: status === 'pending_payment' ? prepared.address : null,
        now,
        detail: { ticket_type_id: type.id, quantity: selection.quantity, unit_price_pence: unit, discount_pct: discountPct },
      },
      rows,
    );
    const ticket = {
      booking_id: booking.id,
      event_id: event.id,
      ticket_type_id: type.id,
      quantity: selection.quantity,
      unit_price_pence: unit,
      qr_token: prepared.qrToken,
      created_at: now.toISOString(),
    };
    if (rows) rows.add('event_tickets', [ticket]);
    else await insertTicket(trx, ticket);
    afterCommit(trx, () => metrics.tickets('reserved', selection.quantity));
    if (status === 'confirmed') {
      await deps.ticketSold?.(trx, {
        eventId: event.id,
        venueId: venue.id,
        promoterId: event.promoter_id,
        bookingId: booking.id,
        amountPence: total,
      });
      await deferTicketMail(trx, deps.mail, { venue, event, booking, ticket, ticketName: type.name }, rows);
      await domainEvents.emit(trx, ticketSoldEvent(booking, ticket, now));
    }
    if (status === 'pending')
      await queueRequestMail(trx, deps.mail, { venue, event, booking, quantity: selection.quantity, ticketName: type.name });
    return { booking_id: booking.id, status, amount_pence: total, ticket_type_id: type.id };
  }

  /** 409 when the event or the ticket type has fewer places left than `quantity` (counted in `held`); else the places left. */
  function refuseSoldOut(
    event: EventRow,
    type: { id: string; capacity: number | null },
    quantity: number,
    held: Held,
    stage: 'cached' | 'transaction',
  ): number {
    const eventLeft = event.guest_list_capacity === null ? Infinity : event.guest_list_capacity - held.guests;
    const typeLeft = type.capacity === null ? Infinity : type.capacity - (held.byType.get(type.id) ?? 0);
    const left = Math.min(eventLeft, typeLeft);
    if (quantity <= left) return left;
    metrics.tickets('refused', quantity);
    metrics.soldOut('tickets', stage);
    throw conflict(SOLD_OUT, { remaining: Math.max(0, left) });
  }

  /** The places an event's active bookings hold: guests, and tickets by type. */
  async function heldNow(conn: Conn, eventId: string): Promise<Held> {
    const active = await activeEventBookings(conn, eventId);
    return { guests: active.reduce((sum, b) => sum + b.guest_count, 0), byType: await catalogue.heldOf(conn, eventId, active) };
  }

  /**
   * What is held, as a cached picture (the venue cache: any write to the venue's bookings, on any
   * instance, invalidates it): an on-sale's refusals once sold out cost no transaction. The sale re-counts
   * in its transaction whatever this says.
   */
  const heldPicture = new VenueCache<Held>(db.changes, clock, { ttlMs: 10_000, maxEntries: 2_000 });

  /**
   * Sales of one event arriving together are written in one transaction under the event's lock (group
   * commit, db/group-commit.ts), each in its savepoint and answered alone; the places held are counted
   * once per transaction and each sale adds its own for the sales after it.
   */
  const sales = new GroupCommit<Sale, SaleAnswer, BatchReads>(db, {
    maxBatch: 16,
    onBatch: (size) => metrics.ticketBatch(size),
    // A sale refuses (409, 400, 404, 429) only before it writes (sell's checks come first): no savepoints.
    isolation: 'refusals-first',
    isRefusal: (error) => error instanceof AppError && error.status < 500,
    async begin(trx, eventId, jobs) {
      await lockKey(db, trx, eventLock(eventId));
      if (jobs.length === 1) return { types: new Map() };
      // A batch of several: its anonymous buyers' guest records read together (a read: refusals still come first).
      const emails = jobs.filter((job) => !job.guestId).map((job) => job.body.guest_email);
      return { types: new Map(), rows: new DeferredRows([NEW_GUEST_RECORDS]), guests: await guestRecordsByEmail(trx, emails) };
    },
    async end(trx, shared) {
      await shared.rows?.write(trx);
    },
    async run(trx, sale, shared, control) {
      // Counted afresh in this transaction (never the cached picture's object), then added to by each sale.
      shared.held ??= heldNow(trx, sale.event.id);
      const held = await shared.held;
      let sold: (SaleAnswer & { ticket_type_id: string }) | undefined;
      const answer = await idempotentIn(db, trx, sale.idempotency, async () => {
        sold = await sell(trx, sale.venue, sale.event.id, sale.body, sale.prepared, sale.guestId, held, shared, control);
        const { ticket_type_id: _type, ...kept } = sold;
        return kept;
      });
      // Written: the sales after it in this transaction count its places.
      if (sold) {
        const quantity = sale.body.selection.quantity;
        held.guests += quantity;
        held.byType.set(sold.ticket_type_id, (held.byType.get(sold.ticket_type_id) ?? 0) + quantity);
      }
      return answer;
    },
  });

  /** A paid reservation as one flow of the payment lifecycle (payments/checkout.ts). */
  const tickets: CheckoutSpec<EventBookingRow> = {
    kind: 'event_booking',
    keys: { ask: (id) => `event-booking-${id}`, release: (id) => `booking-release-${id}` },
    subject: (id) => `event booking:${id}`,
    view: payableBooking,
    fromSession: (conn, session) =>
      session.metadata.booking_id ? eventBooking(conn, session.metadata.booking_id) : Promise.resolve(undefined),
    intent: (booking) => ({ metadata: { kind: 'event_booking', booking_id: booking.id } }),
    attachIntent: (conn, id, intentId) => attachEventIntent(conn, id, intentId, clock.now()),
    async confirm(trx, id, paid) {
      const confirmed = await eventBookings.confirmPaid(trx, id, paid.via);
      if (confirmed) await mailTickets(trx, confirmed);
    },
    release: async (trx, id, why) => (await eventBookings.release(trx, id, why)) !== undefined,
    // A declined card keeps the tickets: the guest may try another until the intent is cancelled or the window passes.
    whenUnpaid: 'keep',
  };
  const checkout = payments.checkout(tickets);

  /** The payment intent of a paid reservation: created once (the provider's idempotency key), then reused. */
  async function requestPayment(venue: VenueRow, event: EventRow, bookingId: string): Promise<CreateIntentResult> {
    const booking = await eventBooking(db, bookingId);
    if (!booking) throw notFound('Booking');
    if (booking.status !== 'pending_payment') throw conflict(`This booking is ${booking.status.replace('_', ' ')}`);
    const intent = await checkout.ask(booking, `${venue.name}: ${event.name} (${event.event_date})`);
    return {
      requires_payment: true,
      booking_id: booking.id,
      status: booking.status,
      payment_intent_id: intent.id,
      client_secret: intent.client_secret ?? '',
      amount_pence: booking.total_pence,
    };
  }

  return {
    ...catalogue.reads,

    /** Counts an attempt from a client address before the body is read (decisions: Rate limits). */
    async countAttempt(ip: string): Promise<void> {
      await deps.rateLimits.hit('event_tickets', ip);
    },

    /** `guestId`: the signed-in guest buying, or null for an anonymous buyer (priced and approved as a first-time guest). */
    async createIntent(eventId: string, body: CreateIntentBody, request: { ip: string; idempotencyKey?: string; guestId: string | null }) {
      await deps.botCheck.verify(body.turnstile_token, request.ip);
      const { event, venue } = await catalogue.publicEvent(eventId);
      const { selection } = body;
      if (selection.party_size !== undefined && selection.party_size !== selection.quantity) {
        throw badRequest('party_size must equal quantity: each ticket admits one guest');
      }
      const now = clock.now();
      const { turnstile_token: _token, ...fields } = body;
      // The buyer is part of what a key stands for: a retry by someone else is another body (409).
      const keyed = { ...fields, guest_id: request.guestId };
      const idempotency = { scope: `event-tickets:${event.id}`, key: request.idempotencyKey, body: keyed, now };
      const sold = await answeredOnce(db, idempotency, async () => {
        // Sold out in the cached picture: refused before any transaction (the sale re-counts in its own).
        const type = await catalogue.ticketType(venue.id, event.id, selection.ticket_type_id);
        const leftNow = async () =>
          type
            ? refuseSoldOut(
                event,
                type,
                selection.quantity,
                await heldPicture.get(venue.id, event.id, () => heldNow(db, event.id)),
                'cached',
              )
            : Infinity;
        // More tickets already on their way to the transaction than the picture has left: wait for the event's
        // batch being written, then ask the picture again (once sold out, refused from it, not by the re-check).
        const release = await sales.admit(event.id, event.id, {
          amount: selection.quantity,
          floor: MIN_TICKETS_IN_FLIGHT,
          room: await leftNow(),
          recheck: leftNow,
        });
        try {
          // Signed only for a purchase that goes on to its transaction (a refusal costs no signature).
          const bookingId = orderedId('bkg');
          const key = await deps.doorKey(venue.id);
          const ttlMs = Math.max(60_000, ticketTokenExpiry(event, venue.timezone).getTime() - now.getTime());
          const qrToken = signQrToken({ bookingId, venueId: venue.id, issuedAt: now, ttlMs }, key.privateKey);
          const prepared = { bookingId, qrToken, address: request.ip };
          return await sales.submit(event.id, { venue, event, body, prepared, guestId: request.guestId, idempotency });
        } finally {
          release();
        }
      });
      if (sold.status === 'pending_payment') return requestPayment(venue, event, sold.booking_id);
      if (sold.status === 'pending') return { requires_confirmation: true, ...sold };
      return { free: true, ...sold };
    },

    /** Confirms a paid reservation once its intent succeeded; idempotent (every call answers the booking as it is). */
    async finalize(eventId: string, intentId: string) {
      const event = await eventById(db, eventId);
      const booking = event ? await eventBookingByIntent(db, event.id, intentId) : undefined;
      if (!booking) throw notFound('Booking');
      await checkout.finalize(booking);
      const current = (await eventBooking(db, booking.id)) ?? booking;
      const done = ['confirmed', 'approved', 'checked_in'].includes(current.status);
      return { success: done, booking_id: current.id, status: current.status, payment_status: current.payment_status };
    },

    /** `event_booking` (metadata `booking_id`): confirmed when paid, released when the session expired. */
    registerFulfilments: checkout.registerFulfilments,
  };
}

export type TicketSales = ReturnType<typeof createTicketSales>;

/**
 * The guest list for signed-in guests (spec: the guest-list rows of Public widget endpoints; decisions:
 * Guest list): a venue's guest-list options for a date (door pricing, surge, promo eligibility, room
 * left), and joining a list with keys.
 *
 * Joining runs in one transaction under the venue's booking lock (the lock every booking create takes,
 * so the list's covers and the door capacity are checked against every source at once, on any number
 * of instances): the rule and date are checked as the public engine checks them (days, shifts,
 * blackouts, booking window), the admission rules of the list profile's group are applied (discount,
 * automatic approval, plus-ones), a promo code is redeemed (one conditional update; rolled back with
 * the booking if anything after it fails), and the keys are spent from the guest's ledger under the
 * guest's ledger lock. `Idempotency-Key` keeps the first answer for a retry.
 */
import type { TextMessages } from '../../../platform/sms/sms.js';
import { availabilityWithNextDates, type SlotReason } from '../../../domain/availability/index.js';
import { evaluateAdmission, type AdmissionDecision } from '../../../domain/admission.js';
import { isCalendarDate, utcToLocal } from '../../../domain/venue-time.js';
import type { Db } from '../../../db/connect.js';
import { kyselyOf, lockKey, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, forbidden, notFound } from '../../../platform/errors.js';
import { orderedId } from '../../../platform/ids.js';
import type { Mail } from '../../../platform/mail/mail.js';
import { venueMessage } from '../../../platform/mail/templates.js';
import type { RateLimits } from '../../../platform/rate-limit.js';
import { findGuest } from '../../auth/index.js';
import { redeemPromoCode } from '../../catalogue/index.js';
import { joinRoster, rosterContact } from '../../guests/index.js';
import { loadAdmissionRules } from '../../profiles/index.js';
import { bookingMails } from '../core/booking-mail.js';
import { bookingOrThrow, type BookingRow } from '../core/booking-store.js';
import type { DoorKeys } from '../core/door-keys.js';
import { assertFreePlaces, assertRoom, committedCovers, roomLeft } from './guestlist-capacity.js';
import { spendKeys } from '../core/guestlist-keys.js';
import { listProfilesOf, listTerms, optionsOf, PENCE_PER_KEY, quote, surging, type ListTerms, type OptionKind } from './guestlist-terms.js';
import { insertBooking } from '../core/booking-writes.js';
import { recordHistory } from '../core/history.js';
import { idempotent } from '../core/idempotency.js';
import { cachedVenueConfig, type LoadedVenue } from '../core/venue-config.js';

export interface GuestlistBody {
  rule_id: string;
  date: string;
  party_size: number;
  option_kind: OptionKind;
  promo_code?: string;
}

export interface GuestlistDeps {
  db: Db;
  clock: Clock;
  mail: Mail;
  rateLimits: RateLimits;
  doorKeys: Pick<DoorKeys, 'manageSecret'>;
  publicBaseUrl: string;
  /** Text messages (platform/sms): confirmation and cancellation texts to guests who agreed to them. */
  sms?: TextMessages;
  /** A live venue by id (the venues module's), read on `conn`. */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /** The guest's tags and connections at the operator, for admission conditions (the guests module's). */
  admissionFacts(conn: Conn, operatorId: string, venueId: string, userId: string): Promise<{ tags: string[]; connections: number }>;
}

type Arrival = { ok: true; time: string; startsAt: Date; endsAt: Date } | { ok: false; reason: SlotReason };

const DATE_REFUSALS: Partial<Record<SlotReason, string>> = {
  closed: 'This guest list does not run on that date',
  blackout: 'The guest list is closed on that date',
  cutoff: 'The guest list for that date has closed',
  horizon: 'The guest list for that date is not open yet',
};

const PROMO_REFUSALS = {
  not_found: 'That promo code is not valid here',
  expired: 'That promo code has expired',
  exhausted: 'That promo code has been used up',
} as const;

/** Statuses of the guest's bookings at the venue that count towards an admission rule's bookings minimum. */
const STANDING = ['approved', 'confirmed', 'checked_in'];

export function createGuestlistBookings(deps: GuestlistDeps) {
  const { db, clock } = deps;
  const venueConfig = cachedVenueConfig(db.changes, clock);
  const mails = bookingMails({ mail: deps.mail, doorKeys: deps.doorKeys, publicBaseUrl: deps.publicBaseUrl, sms: deps.sms });

  async function venueOrThrow(venueId: string): Promise<VenueRow> {
    const venue = await deps.liveVenue(db, venueId);
    if (!venue) throw notFound('Venue');
    return venue;
  }

  /** The venue's guest-list rules guests may book (not opted out of the app), with their terms. */
  async function listsOf(conn: Conn, venue: VenueRow, loaded: LoadedVenue): Promise<ListTerms[]> {
    const rules = loaded.rules.filter((r) => r.rule_type === 'guestlist' && !r.app_opt_out);
    if (rules.length === 0) return [];
    const profiles = rules.some((r) => r.list_profile_id) ? await listProfilesOf(conn, venue.id) : new Map();
    return rules.map((rule) => listTerms(rule, rule.list_profile_id ? profiles.get(rule.list_profile_id) : undefined, venue));
  }

  /**
   * Each list's arrival on a date, from the availability engine (days, shifts, blackouts, booking window;
   * a list profile's window where the rule has none): the first slot of the list a guest could take.
   * Party size and covers are the guest list's own checks, so the engine is asked for one guest.
   */
  function arrivals(loaded: LoadedVenue, lists: ListTerms[], date: string, now: Date): Map<string, Arrival> {
    const byId = new Map(lists.map((list) => [list.rule.id, list]));
    const accessRules = loaded.config.accessRules
      .filter((r) => byId.has(r.id))
      .map((r) => {
        const window = byId.get(r.id)!.bookingWindow;
        return window ? { ...r, bookingWindowEnabled: true, bookingCutoff: window.cutoff, bookingStart: window.start } : r;
      });
    const { availability } = availabilityWithNextDates({ ...loaded.config, accessRules }, [], {
      date,
      partySize: 1,
      type: 'guestlist',
      now,
      days: 0,
    });
    const out = new Map<string, Arrival>();
    for (const list of lists) {
      const slots = availability.slots.filter((s) => s.access_rule_id === list.rule.id);
      const usable = slots.find((s) => s.available || s.reason === 'party_size' || s.reason === 'max_covers');
      out.set(
        list.rule.id,
        usable
          ? { ok: true, time: usable.time, startsAt: usable.starts_at, endsAt: usable.ends_at }
          : { ok: false, reason: slots[0]?.reason ?? 'closed' },
      );
    }
    return out;
  }

  /** What the guest's standing earns under the list profile's admission group (the venue's defaults without one). */
  async function admissionOf(conn: Conn, venue: VenueRow, list: ListTerms, userId: string): Promise<AdmissionDecision> {
    const defaults = { maxPlusOnes: venue.max_plus_ones };
    const rules = list.admissionGroupId ? await loadAdmissionRules(conn, venue.id, list.admissionGroupId) : [];
    if (rules.length === 0) return { discount_pct: 0, auto_approve: false, max_plus_ones: defaults.maxPlusOnes, matched_rule_ids: [] };
    const needsFacts = rules.some((r) => r.cond_tags_enabled || r.cond_connections_enabled);
    const [facts, bookings] = await Promise.all([
      needsFacts ? deps.admissionFacts(conn, venue.operator_id, venue.id, userId) : { tags: [], connections: 0 },
      kyselyOf(conn)
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('venue_id', '=', venue.id)
        .where('status', 'in', STANDING)
        .executeTakeFirstOrThrow(),
    ]);
    return evaluateAdmission(rules, { tags: facts.tags, connections: facts.connections, bookings: Number(bookings.n) }, defaults);
  }

  async function options(venueId: string, date?: string) {
    const venue = await venueOrThrow(venueId);
    const now = clock.now();
    const day = date ?? utcToLocal(now, venue.timezone).date;
    if (!isCalendarDate(day)) throw badRequest('date must be a real calendar date');
    const loaded = await venueConfig(db, venue, day);
    const lists = await listsOf(db, venue, loaded);
    const arrival = arrivals(loaded, lists, day, now);
    const rules = await Promise.all(
      lists.map(async (list) => {
        const { rule, pricing } = list;
        const covers = await committedCovers(db, venue.id, day, rule.id);
        const room = roomLeft(list.maxCovers, venue, covers);
        const when = arrival.get(rule.id)!;
        const reason = !when.ok ? when.reason : room === 0 ? 'full' : null;
        return {
          id: rule.id,
          name: rule.name,
          display_title: rule.display_enabled ? rule.display_title : null,
          display_description: rule.display_enabled ? rule.display_description : null,
          display_image_url: rule.display_enabled ? rule.display_image_url : null,
          list_profile_id: list.profile?.id ?? null,
          available: reason === null,
          reason,
          arrival_time: when.ok ? when.time : null,
          party_size_min: list.partyMin,
          party_size_max: Math.min(list.partyMax ?? Infinity, 1 + venue.max_plus_ones),
          max_plus_ones: venue.max_plus_ones,
          committed_covers: covers.list,
          max_covers: list.maxCovers,
          remaining_capacity: room,
          venue_access_pence: pricing.venueAccessPence,
          surge: pricing.surge && {
            threshold: pricing.surge.threshold,
            price_pence: pricing.surge.pricePence,
            active: surging(pricing, covers.list),
          },
          options: optionsOf(pricing, covers.list, room).map((o) => ({ ...o, available: o.available && when.ok })),
        };
      }),
    );
    return {
      venue: { id: venue.id, name: venue.name, timezone: venue.timezone },
      date: day,
      pence_per_key: PENCE_PER_KEY,
      door_capacity: venue.backdoor_capacity,
      rules,
    };
  }

  /** Counts a join attempt from a client address (the public booking limit), before anything else is done. */
  async function countAttempt(ip: string): Promise<void> {
    await deps.rateLimits.hit('public_booking', ip);
  }

  async function join(venueId: string, body: GuestlistBody, request: { userId: string; idempotencyKey?: string }) {
    if (!isCalendarDate(body.date)) throw badRequest('date must be a real calendar date');
    const venue = await venueOrThrow(venueId);
    const { userId } = request;
    const now = clock.now();
    const scope = `guestlist:${venue.id}:${userId}`;
    return idempotent(db, { scope, key: request.idempotencyKey, body, now }, async (trx) => {
      await lockKey(db, trx, `venue-bookings:${venue.id}`);
      const guest = await findGuest(trx, userId);
      if (!guest) throw forbidden('Only a guest account can join a guest list');
      // The phone this operator was given before (its roster entry), never one given to another operator.
      const phone = (await rosterContact(trx, venue.operator_id, userId))?.phone ?? null;
      const loaded = await venueConfig(trx, venue, body.date);
      const rule = loaded.rules.find((r) => r.id === body.rule_id);
      if (!rule || rule.app_opt_out) throw notFound('Access rule');
      if (rule.rule_type !== 'guestlist') throw badRequest('rule_id must name a guest-list access rule');
      const [list] = await listsOf(trx, venue, { ...loaded, rules: [rule] });
      const arrival = arrivals(loaded, [list], body.date, now).get(rule.id)!;
      if (!arrival.ok)
        throw badRequest(DATE_REFUSALS[arrival.reason] ?? 'The guest list cannot be joined for that date', { reason: arrival.reason });

      const admission = await admissionOf(trx, venue, list, userId);
      const partyMax = Math.min(list.partyMax ?? Infinity, 1 + admission.max_plus_ones);
      if (body.party_size < list.partyMin) throw badRequest(`party_size must be at least ${list.partyMin} for this guest list`);
      if (body.party_size > partyMax) {
        throw badRequest(`party_size may be at most ${partyMax} for this guest list (you and ${partyMax - 1} plus-ones)`, {
          party_size_max: partyMax,
        });
      }

      const covers = await committedCovers(trx, venue.id, body.date, rule.id);
      const offered = optionsOf(list.pricing, covers.list, null);
      const option = offered.find((o) => o.kind === body.option_kind);
      if (!option) {
        throw badRequest(
          `option_kind ${body.option_kind} is not offered on this guest list (offered: ${offered.map((o) => o.kind).join(', ') || 'none'})`,
        );
      }
      assertRoom(list.maxCovers, venue, covers, body.party_size);
      if (option.kind === 'free') assertFreePlaces(option.places, covers, body.party_size);

      let promo: { code: string; discount_pct: number } | null = null;
      if (body.promo_code !== undefined) {
        if (!option.promo_eligible) throw badRequest('A promo code applies only to a paid option');
        const redeemed = await redeemPromoCode(trx, venue.id, body.promo_code, now);
        if (!redeemed.ok) throw badRequest(PROMO_REFUSALS[redeemed.reason], { reason: `promo_${redeemed.reason}` });
        promo = { code: redeemed.promo.code, discount_pct: redeemed.promo.discount_pct };
      }
      const price = quote(option.price_pence, body.party_size, admission.discount_pct, promo?.discount_pct ?? 0);

      const id = orderedId('bkg');
      const at = now.toISOString();
      const status = admission.auto_approve ? 'approved' : 'pending';
      await insertBooking(trx, {
        row: {
          id,
          operator_id: venue.operator_id,
          venue_id: venue.id,
          kind: 'guestlist',
          rule_type: 'guestlist',
          source: 'widget',
          status,
          user_id: userId,
          access_rule_id: rule.id,
          booking_date: body.date,
          start_time: arrival.time,
          duration_minutes: Math.round((arrival.endsAt.getTime() - arrival.startsAt.getTime()) / 60_000),
          starts_at: arrival.startsAt.toISOString(),
          ends_at: arrival.endsAt.toISOString(),
          guest_count: body.party_size,
          guest_name: guest.name,
          guest_email: guest.email,
          guest_phone: phone,
          total_pence: price.pence,
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        },
      });
      if (price.keys > 0) {
        await spendKeys(db, trx, { userId, keys: price.keys, bookingId: id, note: `Guest list at ${venue.name} on ${body.date}`, at: now });
      }
      await recordHistory(
        trx,
        id,
        { kind: 'guest', id: userId, name: guest.name },
        {
          action: 'create',
          toStatus: status,
          detail: {
            option_kind: option.kind,
            price_pence: option.price_pence,
            discount_pct: admission.discount_pct,
            promo_code: promo?.code ?? null,
            promo_discount_pct: promo?.discount_pct ?? 0,
            total_pence: price.pence,
            keys_spent: price.keys,
            admission_rule_ids: admission.matched_rule_ids,
          },
        },
        now,
      );
      await joinRoster(trx, { operatorId: venue.operator_id, venueId: venue.id, userId, at: now });
      const booking = await bookingOrThrow(trx, id);
      if (status === 'approved') await mails.confirmation(trx, venue, booking);
      else await requestReceived(trx, venue, booking, price.keys);
      return { success: true, booking_id: id, status, keys_spent: price.keys, auto_approved: admission.auto_approve };
    });
  }

  /** A pending request's mail: received, awaiting the venue's approval (the confirmation follows approval at the door). */
  async function requestReceived(conn: Conn, venue: VenueRow, booking: BookingRow, keys: number): Promise<void> {
    if (!booking.guest_email) return;
    const details = [
      { label: 'Date', value: booking.booking_date },
      { label: 'Arrival from', value: booking.start_time ?? '' },
      { label: 'Party size', value: String(booking.guest_count) },
      { label: 'Keys spent', value: String(keys) },
      { label: 'Booking reference', value: booking.id },
    ];
    await deps.mail.queue(
      conn,
      venueMessage({
        to: booking.guest_email,
        subject: `Your guest-list request at ${venue.name} on ${booking.booking_date}`,
        venue,
        content: {
          paragraphs: [
            `Hello ${booking.guest_name ?? 'there'}, ${venue.name} has your request to join its guest list and will confirm it.`,
            'If the venue declines it, any keys spent are returned to you.',
          ],
          details: details.filter((row) => row.value),
        },
      }),
    );
  }

  return { options, countAttempt, join };
}

export type GuestlistBookings = ReturnType<typeof createGuestlistBookings>;

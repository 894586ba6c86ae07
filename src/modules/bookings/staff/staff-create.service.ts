/**
 * Bookings staff make (decisions: the staff reservation floor): a table booking for a known guest, a
 * guest by name and contact details, or a walk-in seated now; and a guest-list place. Staff work outside
 * the access rules' grid (cutoffs, pacing and party limits are the guests' rules, not the floor's), but
 * never outside the tables: the tables must be active, seat the party and be free (the slots' primary
 * key decides), and blocks are respected. No payment is asked here; staff request a card hold later
 * (`POST /api/bookings/:id/hold/request`) when the venue wants one.
 *
 * Each create runs in the same serialised transaction as a public booking (one per venue), with an
 * optional `Idempotency-Key`, and queues the guest's confirmation with it.
 */
import type { Audit } from '../../../platform/audit.js';
import type { TextMessages } from '../../../platform/sms/sms.js';
import { withSmartDuration } from '../../../domain/availability/index.js';
import type { BookingStatus } from '../../../domain/booking-status.js';
import { isCalendarDate, localToUtc, utcToLocal } from '../../../domain/venue-time.js';
import type { Db } from '../../../db/connect.js';
import { lockKey, type Conn } from '../../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import { orderedId } from '../../../platform/ids.js';
import type { Mail } from '../../../platform/mail/mail.js';
import { clearableText, requiredText } from '../../../platform/text.js';
import { findGuest, guestForEmail } from '../../auth/index.js';
import { rosterContact } from '../../guests/index.js';
import { floorplanRecords } from '../../tables/index.js';
import { bookingMails } from '../core/booking-mail.js';
import { bookingOrThrow } from '../core/booking-store.js';
import { toDetail } from './booking-views.js';
import type { BookingChanged } from './bookings.schemas.js';
import type { DoorKeys } from '../core/door-keys.js';
import { checkGuestlistRoom } from '../guestlist/guestlist-capacity.js';
import { insertBooking } from '../core/booking-writes.js';
import { recordHistory } from '../core/history.js';
import { idempotent } from '../core/idempotency.js';
import { bestSeating, holdTables, namedTablesFree, type Stay } from '../core/seating.js';
import { staffActor } from './staff.service.js';
import { loadVenueConfig } from '../core/venue-config.js';

export const STAFF_CREATE_STATUSES = ['pending', 'approved', 'confirmed', 'checked_in'] as const;
export type StaffCreateStatus = (typeof STAFF_CREATE_STATUSES)[number];

/** Who the booking is for: a known guest (`user_id`), or a name with optional contact details. */
interface GuestFields {
  user_id?: string;
  guest_name?: string;
  guest_email?: string | null;
  guest_phone?: string | null;
}

export interface StaffTableBookingBody extends GuestFields {
  /** Venue-local; both default to now for a walk-in. */
  date?: string;
  time?: string;
  party_size: number;
  duration_minutes?: number;
  /** Omitted: the best free tables; empty: no table yet. */
  table_ids?: string[];
  access_rule_id?: string;
  walk_in?: boolean;
  status?: StaffCreateStatus;
  notes?: string | null;
  send_confirmation?: boolean;
}

export interface StaffGuestlistBookingBody extends GuestFields {
  date: string;
  /** Arrival time, when the list has one. */
  time?: string;
  party_size: number;
  access_rule_id?: string;
  status?: StaffCreateStatus;
  notes?: string | null;
  send_confirmation?: boolean;
}

export interface StaffCreateDeps {
  db: Db;
  clock: Clock;
  mail: Mail;
  doorKeys: Pick<DoorKeys, 'manageSecret'>;
  publicBaseUrl: string;
  /** Text messages (platform/sms): confirmation and cancellation texts to guests who agreed to them. */
  sms?: TextMessages;
  /** The audit log (platform/audit.ts): each staff-made booking, with its actor. */
  audit: Audit;
}

export type StaffCreated = BookingChanged & { id: string };

/** Statuses a guest is told about with a confirmation (a pending booking awaits the venue's approval). */
const CONFIRMED: readonly string[] = ['approved', 'confirmed'];

export function createStaffBookings(deps: StaffCreateDeps) {
  const { db, clock } = deps;
  const mails = bookingMails({ mail: deps.mail, doorKeys: deps.doorKeys, publicBaseUrl: deps.publicBaseUrl, sms: deps.sms });

  /** The contact details the booking carries and the guest record it links to. */
  async function guestOf(conn: Conn, operatorId: string, body: GuestFields, now: Date) {
    if (body.user_id) {
      // Only a guest already on this operator's roster, with the phone given to this operator (decisions:
      // Security round 2): a raw user id must not reach another operator's guest or their contact details.
      const [guest, contact] = await Promise.all([findGuest(conn, body.user_id), rosterContact(conn, operatorId, body.user_id)]);
      if (!guest || !contact) throw notFound('Guest');
      return {
        user_id: guest.id,
        guest_name: clearableText(body.guest_name) ?? guest.name,
        guest_email: body.guest_email === undefined ? guest.email : (clearableText(body.guest_email) ?? null),
        guest_phone: body.guest_phone === undefined ? contact.phone : (clearableText(body.guest_phone) ?? null),
      };
    }
    const name = requiredText(body.guest_name ?? '', 'guest_name');
    const email = clearableText(body.guest_email) ?? null;
    const phone = clearableText(body.guest_phone) ?? null;
    return {
      user_id: email ? await guestForEmail(conn, { name, email }, now) : null,
      guest_name: name,
      guest_email: email,
      guest_phone: phone,
    };
  }

  /** The access rule a staff booking files under, when named: one of the venue's, of the expected type. */
  async function ruleOf(conn: Conn, venue: VenueRow, date: string, id: string | undefined, type: 'table' | 'guestlist') {
    if (!id) return null;
    const { rules } = await loadVenueConfig(conn, venue, date);
    const rule = rules.find((r) => r.id === id);
    if (!rule) throw notFound('Access rule');
    if (rule.rule_type !== type) throw badRequest(`access_rule_id must name a ${type} access rule`);
    return rule;
  }

  /** Inserts the booking, its tables and slots, its history and the guest's confirmation; answers it after commit. */
  async function create(
    auth: AuthInfo,
    venue: VenueRow,
    request: { idempotencyKey?: string; scope: string; body: object },
    build: (conn: Conn, id: string, now: Date) => Promise<{ row: NewRow; tableIds: readonly string[]; stay: Stay | null; mail: boolean }>,
  ): Promise<StaffCreated> {
    const now = clock.now();
    const created = await idempotent(
      db,
      { scope: `${request.scope}:${venue.id}`, key: request.idempotencyKey, body: request.body, now },
      async (trx) => {
        await lockKey(db, trx, `venue-bookings:${venue.id}`);
        const id = orderedId('bkg');
        const { row, tableIds, stay, mail } = await build(trx, id, now);
        const at = now.toISOString();
        await insertBooking(trx, {
          row: {
            ...row,
            id,
            operator_id: venue.operator_id,
            venue_id: venue.id,
            checked_in_at: row.status === 'checked_in' ? at : null,
            status_changed_at: at,
            created_at: at,
            updated_at: at,
          },
          roster: { operatorId: venue.operator_id, venueId: venue.id, userId: row.user_id ?? null, at: now, phone: row.guest_phone },
        });
        if (stay && tableIds.length > 0) await holdTables(trx, { id, venue_id: venue.id }, tableIds, stay.startsAt, stay.endsAt);
        await recordHistory(
          trx,
          id,
          staffActor(auth),
          { action: 'create', toStatus: row.status, detail: { source: row.source, table_ids: tableIds } },
          now,
        );
        const booking = await bookingOrThrow(trx, id);
        await deps.audit.record(trx, {
          action: 'booking.created',
          entityType: 'booking',
          entityId: id,
          venueId: venue.id,
          after: { ...booking, table_ids: tableIds },
          // As for changes (staff.service.ts): the guest's contact details are never kept in the log.
          redact: ['guest_name', 'guest_email', 'guest_phone', 'hold_address'],
        });
        // The confirmation mail needs an address, its text a phone with consent: booking-mail.ts checks both.
        if (mail && CONFIRMED.includes(booking.status)) await mails.confirmation(trx, venue, booking);
        return { id };
      },
    );
    const booking = await bookingOrThrow(db, created.id);
    return { success: true, id: booking.id, booking: await toDetail(db, booking, venue.name) };
  }

  return {
    /** A table booking by staff: a reservation, or a walk-in seated now. */
    createTableBooking(auth: AuthInfo, venue: VenueRow, body: StaffTableBookingBody, idempotencyKey?: string) {
      const walkIn = body.walk_in === true;
      return create(auth, venue, { idempotencyKey, scope: 'staff-book', body }, async (conn, id, now) => {
        const local = utcToLocal(now, venue.timezone);
        if (!walkIn && (body.date === undefined || body.time === undefined))
          throw badRequest('date and time are required (except for a walk-in)');
        const date = realDate(body.date ?? local.date);
        const time = body.time ?? local.time;
        const rule = await ruleOf(conn, venue, date, body.access_rule_id, 'table');
        const minutes =
          body.duration_minutes ??
          withSmartDuration(venue.default_booking_duration, await smartDurationOn(conn, venue.id), body.party_size);
        const startsAt = localToUtc(date, time, venue.timezone);
        const stay = { startsAt, endsAt: new Date(startsAt.getTime() + minutes * 60_000) };
        let tableIds: readonly string[] = [];
        if (body.table_ids === undefined) {
          const best = await bestSeating(conn, venue, { date, stay, partySize: body.party_size });
          if (!best) throw conflict(`No free table seats ${body.party_size} at ${time} on ${date}`, { reason: 'no_table' });
          tableIds = best.tableIds;
        } else if (body.table_ids.length > 0) {
          const named = [...new Set(body.table_ids)];
          await namedTablesFree(conn, { id, venue_id: venue.id }, named, body.party_size, stay);
          tableIds = named;
        }
        const status: BookingStatus = body.status ?? (walkIn ? 'checked_in' : 'confirmed');
        return {
          row: {
            kind: 'table',
            rule_type: 'table',
            source: walkIn ? 'walk_in' : 'staff',
            status,
            access_rule_id: rule?.id ?? null,
            booking_date: date,
            start_time: time,
            duration_minutes: minutes,
            starts_at: stay.startsAt.toISOString(),
            ends_at: stay.endsAt.toISOString(),
            guest_count: body.party_size,
            notes: clearableText(body.notes) ?? null,
            ...(await guestOf(conn, venue.operator_id, body, now)),
          },
          tableIds,
          stay,
          mail: !walkIn && body.send_confirmation !== false,
        };
      });
    },

    /** A place on a guest list by staff: no table; the stay is timed only when an arrival time is given. */
    createGuestlistBooking(auth: AuthInfo, venue: VenueRow, body: StaffGuestlistBookingBody, idempotencyKey?: string) {
      return create(auth, venue, { idempotencyKey, scope: 'staff-guestlist', body }, async (conn, _id, now) => {
        const rule = await ruleOf(conn, venue, realDate(body.date), body.access_rule_id, 'guestlist');
        // The list's max covers (rule, else its list profile) and the venue's door capacity, under the venue lock.
        await checkGuestlistRoom(conn, venue, { date: body.date, rule, party: body.party_size });
        const time = body.time ?? rule?.time_from ?? null;
        const startsAt = time ? localToUtc(body.date, time, venue.timezone) : null;
        const endsAt = startsAt ? new Date(startsAt.getTime() + venue.default_booking_duration * 60_000) : null;
        return {
          row: {
            kind: 'guestlist',
            rule_type: 'guestlist',
            source: 'staff',
            status: body.status ?? 'approved',
            access_rule_id: rule?.id ?? null,
            booking_date: body.date,
            start_time: time,
            duration_minutes: startsAt ? venue.default_booking_duration : null,
            starts_at: startsAt?.toISOString() ?? null,
            ends_at: endsAt?.toISOString() ?? null,
            guest_count: body.party_size,
            notes: clearableText(body.notes) ?? null,
            ...(await guestOf(conn, venue.operator_id, body, now)),
          },
          tableIds: [],
          stay: null,
          mail: body.send_confirmation !== false,
        };
      });
    },
  };

  async function smartDurationOn(conn: Conn, venueId: string): Promise<boolean> {
    return (await floorplanRecords(conn, venueId)).smart.duration_enabled;
  }
}

interface NewRow {
  kind: string;
  rule_type: string;
  source: string;
  status: BookingStatus;
  access_rule_id: string | null;
  booking_date: string;
  start_time: string | null;
  duration_minutes: number | null;
  starts_at: string | null;
  ends_at: string | null;
  guest_count: number;
  notes: string | null;
  user_id: string | null;
  guest_name: string;
  guest_email: string | null;
  guest_phone: string | null;
}

function realDate(date: string): string {
  if (!isCalendarDate(date)) throw badRequest('date must be a real calendar date');
  return date;
}

export type StaffBookings = ReturnType<typeof createStaffBookings>;

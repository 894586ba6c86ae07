/**
 * Booking reminders (docs/messages.md, Reminders): a venue's settings, its message templates, the pass that
 * sends due reminders, and the guest's one-tap links (confirm, cancel, unsubscribe).
 *
 * `runDue` (the `reminders` job, on every instance) looks at each enabled venue's active bookings starting
 * within its largest offset. A reminder is due at `start − offset`, moved out of quiet hours or skipped
 * (domain/reminder-schedule.ts); one due before the booking was made is never sent, and when several of a
 * booking's reminders are due at once (a server that was down) only the nearest goes, the others are
 * recorded as superseded. Each reminder is one transaction: the booking is locked and re-read (a booking
 * cancelled meanwhile gets no reminder), the `(booking, offset)` row is inserted — its primary key lets
 * exactly one instance, once, ever, win it — and the mail and text messages are queued with it. A pass that
 * dies before its commit leaves nothing behind, and the next pass sends the reminder.
 */
import type { Logger } from 'pino';
import { isActive } from '../../../domain/booking-status.js';
import { signReminderToken, verifyReminderToken, type ReminderAction } from '../../../domain/booking-tokens/index.js';
import { isMessageKind, renderTemplate } from '../../../domain/message-templates.js';
import { peopleDate } from '../../../domain/people-dates.js';
import { reminderSendTime, textableNumber, type QuietHours } from '../../../domain/reminder-schedule.js';
import type { Db } from '../../../db/connect.js';
import { kyselyOf, lockKey, withTransaction, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import type { Mail } from '../../../platform/mail/mail.js';
import { venueMessage } from '../../../platform/mail/templates.js';
import type { RateLimits } from '../../../platform/rate-limit.js';
import { consentOf, isOptedOut, recordConsent } from '../../../platform/sms/consent.js';
import type { TextMessages } from '../../../platform/sms/sms.js';
import { saveTemplate, templateFor, venueTemplates } from '../../../platform/sms/templates.js';
import { updateBooking } from '../core/booking-writes.js';
import { findBooking, type BookingRow } from '../core/booking-store.js';
import type { DoorKeys } from '../core/door-keys.js';
import { recordHistory } from '../core/history.js';
import type { ManageBookings } from '../manage/manage.service.js';

/** Statuses a reminder goes out for: a booking still expected (not awaiting payment, not yet at the door). */
const REMINDABLE = ['pending', 'approved', 'confirmed'] as const;
export const REMINDER_CHANNELS = ['mail', 'sms'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];
export const MAX_OFFSETS = 5;
export const MIN_OFFSET_MINUTES = 15;
export const MAX_OFFSET_MINUTES = 14 * 24 * 60;
/** How long after the booking starts an unsubscribe link still works. */
const UNSUBSCRIBE_GRACE_MS = 30 * 24 * 60 * 60_000;

/** One answer for every link we cannot accept (malformed, forged, expired). */
export const BAD_REMINDER_LINK_MESSAGE = 'This link is not valid or has expired';

export interface ReminderSettings {
  enabled: boolean;
  offsets_minutes: number[];
  channels: ReminderChannel[];
  quiet_hours: { start: string; end: string } | null;
  quiet_mode: 'shift' | 'skip';
  updated_at: string | null;
}

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  enabled: false,
  offsets_minutes: [1440, 120],
  channels: ['mail', 'sms'],
  quiet_hours: { start: '22:00', end: '08:00' },
  quiet_mode: 'shift',
  updated_at: null,
};

export interface RemindersDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  mail: Mail;
  sms: TextMessages;
  rateLimits: RateLimits;
  doorKeys: Pick<DoorKeys, 'manageSecret'>;
  publicBaseUrl: string;
  venueById(venueId: string): Promise<VenueRow | undefined>;
  manage: Pick<ManageBookings, 'cancelBooking'>;
}

export interface ReminderActionAnswer {
  success: true;
  booking_id: string;
  action: ReminderAction;
  status: string;
  guest_confirmed_at: string | null;
  refunded_pence?: number;
}

async function readSettings(conn: Conn, venueId: string): Promise<ReminderSettings> {
  const row = await kyselyOf(conn).selectFrom('reminder_settings').selectAll().where('venue_id', '=', venueId).executeTakeFirst();
  return row ? settingsOf(row) : DEFAULT_REMINDER_SETTINGS;
}

function settingsOf(row: {
  enabled: number;
  offsets: string;
  channels: string;
  quiet_start: string | null;
  quiet_end: string | null;
  quiet_mode: string;
  updated_at: string;
}): ReminderSettings {
  return {
    enabled: Number(row.enabled) === 1,
    offsets_minutes: JSON.parse(row.offsets) as number[],
    channels: JSON.parse(row.channels) as ReminderChannel[],
    quiet_hours: row.quiet_start && row.quiet_end ? { start: row.quiet_start, end: row.quiet_end } : null,
    quiet_mode: row.quiet_mode === 'skip' ? 'skip' : 'shift',
    updated_at: row.updated_at,
  };
}

const quietOf = (settings: ReminderSettings): QuietHours | null =>
  settings.quiet_hours ? { ...settings.quiet_hours, mode: settings.quiet_mode } : null;

export function createReminders(deps: RemindersDeps) {
  const { db, clock, log } = deps;

  async function link(conn: Conn, booking: BookingRow, action: ReminderAction): Promise<string> {
    const startsAt = booking.starts_at ? new Date(booking.starts_at) : new Date(`${booking.booking_date}T23:59:00Z`);
    const expiresAt = action === 'unsubscribe' ? new Date(startsAt.getTime() + UNSUBSCRIBE_GRACE_MS) : startsAt;
    const token = signReminderToken({ bookingId: booking.id, action, expiresAt }, await deps.doorKeys.manageSecret(conn));
    return `${deps.publicBaseUrl}/booking-reminder?token=${encodeURIComponent(token)}`;
  }

  /** The channels this booking's guest can be reminded on now: contact given, consent not withdrawn (SMS: given), no STOP. */
  async function reachable(trx: Conn, booking: BookingRow, channels: readonly ReminderChannel[]): Promise<{ mail?: string; sms?: string }> {
    const out: { mail?: string; sms?: string } = {};
    if (
      channels.includes('mail') &&
      booking.guest_email &&
      (await consentOf(trx, booking.operator_id, 'mail', booking.guest_email)) !== false
    )
      out.mail = booking.guest_email;
    const phone = textableNumber(booking.guest_phone);
    if (
      channels.includes('sms') &&
      phone &&
      (await consentOf(trx, booking.operator_id, 'sms', phone)) === true &&
      !(await isOptedOut(trx, phone))
    )
      out.sms = phone;
    return out;
  }

  async function remind(trx: Conn, venue: VenueRow, booking: BookingRow, to: { mail?: string; sms?: string }): Promise<void> {
    const [confirmUrl, cancelUrl] = [await link(trx, booking, 'confirm'), await link(trx, booking, 'cancel')];
    const values = {
      guest_name: booking.guest_name ?? 'there',
      venue_name: venue.name,
      date: peopleDate(booking.booking_date),
      time: booking.start_time ?? '',
      party_size: String(booking.guest_count),
      reference: booking.reference ?? booking.id,
      confirm_url: confirmUrl,
      cancel_url: cancelUrl,
    };
    if (to.sms) {
      const body = renderTemplate(await templateFor(trx, venue.id, 'reminder'), values);
      await deps.sms.queue(trx, { to: to.sms, body, venueId: venue.id, kind: 'reminder' });
    }
    if (to.mail) {
      await deps.mail.queue(
        trx,
        venueMessage({
          to: to.mail,
          subject: `Reminder: your booking at ${venue.name} on ${values.date}`,
          venue,
          content: {
            paragraphs: [
              `Hello ${values.guest_name}, we look forward to seeing you on ${values.date} at ${values.time}, a table for ${values.party_size}.`,
              `Please confirm you are coming with the link below. Cannot make it? Cancel here: ${cancelUrl}`,
              `You receive this reminder because you booked at ${venue.name}. No more reminder mail: ${await link(trx, booking, 'unsubscribe')}`,
            ],
            details: [
              { label: 'Venue', value: `${venue.name}, ${venue.address}` },
              { label: 'Booking reference', value: values.reference },
            ],
            link: { label: 'Confirm I am coming', url: confirmUrl },
          },
        }),
      );
    }
  }

  /** One reminder of one booking, in one transaction: 'sent', 'skipped' (recorded), or 'taken' (another instance had it). */
  async function deliver(venue: VenueRow, settings: ReminderSettings, bookingId: string, offset: number, superseded: number[], now: Date) {
    return withTransaction(db, async (trx) => {
      await lockKey(db, trx, `booking:${bookingId}`);
      const booking = await findBooking(trx, bookingId);
      if (!booking) return 'taken' as const;
      const remindable =
        (REMINDABLE as readonly string[]).includes(booking.status) && booking.starts_at !== null && booking.starts_at > now.toISOString();
      const to = remindable ? await reachable(trx, booking, settings.channels) : {};
      const channels = Object.keys(to);
      const reason = !remindable ? `status_${booking.status}` : channels.length === 0 ? 'no_reachable_channel' : null;
      const at = now.toISOString();
      const won = await kyselyOf(trx)
        .insertInto('booking_reminders')
        .values({
          booking_id: bookingId,
          offset_minutes: offset,
          status: reason ? 'skipped' : 'sent',
          reason,
          channels: JSON.stringify(channels),
          created_at: at,
        })
        .onConflict((oc) => oc.columns(['booking_id', 'offset_minutes']).doNothing())
        .returning('booking_id')
        .executeTakeFirst();
      if (!won) return 'taken' as const;
      for (const other of superseded)
        await kyselyOf(trx)
          .insertInto('booking_reminders')
          .values({ booking_id: bookingId, offset_minutes: other, status: 'skipped', reason: 'superseded', channels: '[]', created_at: at })
          .onConflict((oc) => oc.columns(['booking_id', 'offset_minutes']).doNothing())
          .execute();
      if (reason) return 'skipped' as const;
      await remind(trx, venue, booking, to);
      return 'sent' as const;
    });
  }

  async function runVenue(venueId: string, settings: ReminderSettings, now: Date, report: { sent: number; skipped: number }) {
    const venue = await deps.venueById(venueId);
    if (!venue || settings.offsets_minutes.length === 0) return;
    const horizon = new Date(now.getTime() + Math.max(...settings.offsets_minutes) * 60_000);
    const bookings = await db.kysely
      .selectFrom('bookings')
      .select(['id', 'starts_at', 'created_at'])
      .where('venue_id', '=', venue.id)
      .where('status', 'in', [...REMINDABLE])
      .where('starts_at', '>', now.toISOString())
      .where('starts_at', '<=', horizon.toISOString())
      .execute();
    if (bookings.length === 0) return;
    const done = new Set<string>();
    const ids = bookings.map((b) => b.id);
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db.kysely
        .selectFrom('booking_reminders')
        .select(['booking_id', 'offset_minutes'])
        .where('booking_id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const row of rows) done.add(`${row.booking_id}:${Number(row.offset_minutes)}`);
    }
    const quiet = quietOf(settings);
    for (const booking of bookings) {
      const startsAt = new Date(booking.starts_at!);
      const due = settings.offsets_minutes
        .filter((offset) => !done.has(`${booking.id}:${offset}`))
        .filter((offset) => startsAt.getTime() - offset * 60_000 > Date.parse(booking.created_at))
        .filter((offset) => {
          const at = reminderSendTime({ startsAt, offsetMinutes: offset, timezone: venue.timezone, quiet });
          return at !== null && at <= now;
        })
        .sort((a, b) => a - b);
      if (due.length === 0) continue;
      try {
        const outcome = await deliver(venue, settings, booking.id, due[0], due.slice(1), now);
        if (outcome !== 'taken') report[outcome]++;
      } catch (error) {
        log.error({ err: error, bookingId: booking.id }, 'a booking reminder failed; the next pass retries it');
      }
    }
  }

  /** The booking a reminder link names, and the link's action; 400 for any link we cannot accept. */
  async function open(token: string, now: Date): Promise<{ booking: BookingRow; action: ReminderAction }> {
    const verified = verifyReminderToken(token, await deps.doorKeys.manageSecret(db), now);
    if (!verified.ok) throw badRequest(BAD_REMINDER_LINK_MESSAGE);
    const booking = await findBooking(db, verified.bookingId);
    if (!booking) throw notFound('Booking');
    return { booking, action: verified.action };
  }

  const answer = (booking: BookingRow, action: ReminderAction): ReminderActionAnswer => ({
    success: true,
    booking_id: booking.id,
    action,
    status: booking.status,
    guest_confirmed_at: booking.guest_confirmed_at,
  });

  return {
    settings: (venue: VenueRow) => readSettings(db, venue.id),

    async saveSettings(venue: VenueRow, body: Omit<ReminderSettings, 'updated_at'>): Promise<ReminderSettings> {
      const offsets = body.offsets_minutes;
      if (new Set(offsets).size !== offsets.length) throw badRequest('offsets_minutes must not repeat an offset');
      if (new Set(body.channels).size !== body.channels.length) throw badRequest('channels must not repeat a channel');
      if (body.quiet_hours && body.quiet_hours.start === body.quiet_hours.end)
        throw badRequest('quiet_hours must start and end at different times');
      const row = {
        venue_id: venue.id,
        enabled: body.enabled ? 1 : 0,
        offsets: JSON.stringify([...offsets].sort((a, b) => b - a)),
        channels: JSON.stringify(body.channels),
        quiet_start: body.quiet_hours?.start ?? null,
        quiet_end: body.quiet_hours?.end ?? null,
        quiet_mode: body.quiet_mode,
        updated_at: clock.now().toISOString(),
      };
      const { venue_id: _id, ...changes } = row;
      await db.kysely
        .insertInto('reminder_settings')
        .values(row)
        .onConflict((oc) => oc.column('venue_id').doUpdateSet(changes))
        .execute();
      return settingsOf(row);
    },

    templates: (venue: VenueRow) => venueTemplates(db, venue.id),

    async saveTemplate(venue: VenueRow, kind: string, body: string | null) {
      if (!isMessageKind(kind)) throw notFound('Template');
      await saveTemplate(db, venue.id, kind, body, clock.now());
      return (await venueTemplates(db, venue.id)).find((t) => t.kind === kind)!;
    },

    /** Sends every reminder due at `now` across venues (see the module comment); answers what this instance did. */
    async runDue(now: Date = clock.now()): Promise<{ sent: number; skipped: number }> {
      const report = { sent: 0, skipped: 0 };
      const rows = await db.kysely.selectFrom('reminder_settings').selectAll().where('enabled', '=', 1).execute();
      for (const row of rows) {
        try {
          await runVenue(row.venue_id, settingsOf(row), now, report);
        } catch (error) {
          log.error({ err: error, venueId: row.venue_id }, 'the reminder pass failed for a venue');
        }
      }
      return report;
    },

    /** What a reminder link would do, for its page. */
    async view(token: string, request: { ip: string }) {
      await deps.rateLimits.hit('public_booking', request.ip);
      const now = clock.now();
      const { booking, action } = await open(token, now);
      const venue = await deps.venueById(booking.venue_id);
      if (!venue) throw notFound('Booking');
      return {
        ...answer(booking, action),
        venue_name: venue.name,
        date: booking.booking_date,
        time: booking.start_time,
        party_size: booking.guest_count,
      };
    },

    /**
     * Does what the link says. Confirm: once (a second confirm, or a confirm of a booking no longer
     * active, is 409 and changes nothing). Cancel: the manage link's cancel under the payment policy; a
     * booking already cancelled is 409 and nothing moves. Unsubscribe: withdraws reminder mail (repeatable).
     */
    async act(token: string, request: { ip: string }): Promise<ReminderActionAnswer> {
      await deps.rateLimits.hit('public_booking', request.ip);
      const now = clock.now();
      const { booking, action } = await open(token, now);
      if (action === 'unsubscribe') {
        if (booking.guest_email)
          await recordConsent(db, {
            operatorId: booking.operator_id,
            channel: 'mail',
            address: booking.guest_email,
            granted: false,
            source: 'unsubscribe_link',
            now,
          });
        return answer(booking, action);
      }
      if (action === 'cancel') {
        if (booking.status === 'cancelled') throw conflict('This booking is already cancelled', { status: booking.status });
        const cancelled = await deps.manage.cancelBooking(booking.id);
        const row = (await findBooking(db, booking.id)) ?? booking;
        return { ...answer(row, action), refunded_pence: cancelled.refunded_pence };
      }
      const confirmed = await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `booking:${booking.id}`);
        const current = await findBooking(trx, booking.id);
        if (!current) throw notFound('Booking');
        if (current.guest_confirmed_at)
          throw conflict('This booking is already confirmed', { guest_confirmed_at: current.guest_confirmed_at });
        if (!isActive(current.status) || current.status === 'checked_in')
          throw conflict(`This booking is ${current.status.replace(/_/g, ' ')}: it cannot be confirmed`, { status: current.status });
        const at = now.toISOString();
        await updateBooking(trx, current.id, { guest_confirmed_at: at, updated_at: at });
        await recordHistory(
          trx,
          current.id,
          { kind: 'guest', id: current.user_id, name: current.guest_name },
          { action: 'guest_confirmed', detail: { via: 'reminder' } },
          now,
        );
        return { ...current, guest_confirmed_at: at };
      });
      return answer(confirmed, action);
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;

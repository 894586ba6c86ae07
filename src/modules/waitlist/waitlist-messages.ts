/**
 * What the waitlist tells guests, queued in the transaction of the change that causes it: by mail when
 * the entry has an email, and by text message when it has a phone (`textMessages`: the SMS platform, which
 * drops numbers that texted STOP). A phone given to the waitlist is given to be told about that entry: no
 * separate consent is asked (docs/waitlist.md). A walk-in's "table ready" text is the venue's own
 * `waitlist_ready` template (docs/messages.md); its `{expires_at}` is when the host stops holding the table.
 */
import { renderTemplate } from '../../domain/message-templates.js';
import { peopleDate } from '../../domain/people-dates.js';
import { textableNumber } from '../../domain/reminder-schedule.js';
import { utcToLocal } from '../../domain/venue-time.js';
import type { Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Mail } from '../../platform/mail/mail.js';
import { templateFor } from '../../platform/sms/templates.js';
import { venueMessage } from '../../platform/mail/templates.js';
import type { EntryRow } from './waitlist.repository.js';

/** The SMS platform's queue, declared here by its shape (src/platform/sms/), so the waitlist works without it. */
export interface TextMessages {
  queue(trx: Conn, message: { to: string; body: string; venueId: string | null; kind: string }): Promise<void>;
}

export type Channel = 'sms' | 'mail';

/** How long the host holds a walk-in's table after telling them it is ready (the template's `{expires_at}`). */
export const TABLE_HELD_MINUTES = 15;

export function waitlistMessages(deps: { mail: Mail; textMessages?: TextMessages }) {
  const { mail, textMessages } = deps;

  async function send(
    conn: Conn,
    venue: VenueRow,
    entry: EntryRow,
    message: {
      kind: string;
      subject: string;
      sms: string;
      paragraphs: string[];
      details?: { label: string; value: string }[];
      link?: { label: string; url: string };
    },
  ): Promise<Channel[]> {
    const channels: Channel[] = [];
    // Only a number in international form is texted (docs/messages.md); another is kept for the host to call.
    const phone = textableNumber(entry.guest_phone);
    if (phone && textMessages) {
      await textMessages.queue(conn, { to: phone, body: message.sms, venueId: venue.id, kind: message.kind });
      channels.push('sms');
    }
    if (entry.guest_email) {
      await mail.queue(
        conn,
        venueMessage({
          to: entry.guest_email,
          subject: message.subject,
          venue,
          content: {
            paragraphs: message.paragraphs,
            ...(message.details ? { details: message.details } : {}),
            ...(message.link ? { link: message.link } : {}),
          },
        }),
      );
      channels.push('mail');
    }
    return channels;
  }

  const hello = (entry: EntryRow) => `Hello ${entry.guest_name},`;

  return {
    /** A walk-in's table is ready. */
    async tableReady(conn: Conn, venue: VenueRow, entry: EntryRow, now: Date) {
      const heldUntil = utcToLocal(new Date(now.getTime() + TABLE_HELD_MINUTES * 60_000), venue.timezone).time;
      const sms = renderTemplate(await templateFor(conn, venue.id, 'waitlist_ready'), {
        guest_name: entry.guest_name,
        venue_name: venue.name,
        party_size: String(entry.party_size),
        expires_at: heldUntil,
        url: '',
      }).trim();
      return send(conn, venue, entry, {
        kind: 'waitlist_ready',
        subject: `Your table at ${venue.name} is ready`,
        sms,
        paragraphs: [`${hello(entry)} your table for ${entry.party_size} is ready. Please come to the host stand.`],
      });
    },

    /** An online guest is on the list (with their link to leave it). */
    joined(conn: Conn, venue: VenueRow, entry: EntryRow, url: string) {
      return send(conn, venue, entry, {
        kind: 'waitlist_joined',
        subject: `You are on the waitlist at ${venue.name} for ${peopleDate(entry.date)}`,
        sms: `${venue.name}: you are on the waitlist for ${peopleDate(entry.date)}. We will tell you if a table frees up: ${url}`,
        paragraphs: [`${hello(entry)} you are on the waitlist. If a table frees up in your window, we will offer it to you here first.`],
        details: details(entry),
        link: { label: 'See your place or leave the waitlist', url },
      });
    },

    /** A freed slot, held out until `expiresAt`. */
    offer(conn: Conn, venue: VenueRow, entry: EntryRow, offer: { time: string; minutes: number }, url: string) {
      return send(conn, venue, entry, {
        kind: 'waitlist_offer',
        subject: `A table at ${venue.name} is free: ${peopleDate(entry.date)} at ${offer.time}`,
        sms: `${venue.name}: a table for ${entry.party_size} is free on ${peopleDate(entry.date)} at ${offer.time}. It is yours if you accept within ${offer.minutes} minutes: ${url}`,
        paragraphs: [
          `${hello(entry)} a table has freed up for you. It is yours if you accept within ${offer.minutes} minutes; after that we offer it to the next guest on the list.`,
        ],
        details: [...details(entry), { label: 'Time', value: offer.time }],
        link: { label: 'Accept the table', url },
      });
    },
  };
}

function details(entry: EntryRow) {
  return [
    { label: 'Date', value: peopleDate(entry.date) },
    { label: 'Party', value: String(entry.party_size) },
    ...(entry.time_from && entry.time_to ? [{ label: 'Window', value: `${entry.time_from}–${entry.time_to}` }] : []),
  ];
}

/** What the waitlist needs from the infrastructure and from the modules it does not own (handed over by the composition root). */
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Conn } from '../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { BotCheck } from '../../platform/bot-check.js';
import type { Clock } from '../../platform/clock.js';
import type { Mail } from '../../platform/mail/mail.js';
import type { RateLimits } from '../../platform/rate-limit.js';
import type { BookAnswer, BookBody, BookRequest, StaffTableBookingBody } from '../bookings/index.js';
import type { TextMessages } from './waitlist-messages.js';

export interface WaitlistDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  mail: Mail;
  botCheck: BotCheck;
  rateLimits: RateLimits;
  publicBaseUrl: string;
  /** How long an offer to an online guest holds before the next in line is offered (WAITLIST_OFFER_MINUTES). */
  offerMinutes: number;
  /** The server secret the guests' waitlist links are MACed with (the bookings module's manage-link secret). */
  linkSecret(conn?: Conn): Promise<string>;
  /** A live venue by id (the venues module's). */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /** The public availability answer (the bookings module's, cached and invalidated by the change feed). */
  availability(
    venueId: string,
    query: { date: string; party_size: number; type: 'tables' },
  ): Promise<{ slots: { time: string; access_rule_id: string; available: boolean }[] }>;
  /** The public booking path (the bookings module's `book`): an accepted offer books through it. */
  book(venueId: string, body: BookBody, request: BookRequest): Promise<BookAnswer>;
  /** The staff walk-in path (the bookings module's `createTableBooking`): seating from the list. */
  seatWalkIn(auth: AuthInfo, venue: VenueRow, body: StaffTableBookingBody, idempotencyKey: string): Promise<{ id: string }>;
  /** Text messages (the SMS platform), when wired in; mail is used without it. */
  textMessages?: TextMessages;
}

/** What ticket sales are built from: the shared infrastructure and the other modules' parts (composition root). */
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { BotCheck } from '../../platform/bot-check.js';
import type { Clock } from '../../platform/clock.js';
import type { Mail } from '../../platform/mail/mail.js';
import type { RateLimits } from '../../platform/rate-limit.js';
import type { EventBookings } from '../bookings/index.js';
import type { Payments } from '../payments/index.js';
import type { AdmissionSources, TicketProfile } from './ticket-offers.js';

export interface TicketSalesDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  payments: Payments;
  mail: Mail;
  botCheck: BotCheck;
  rateLimits: RateLimits;
  eventBookings: EventBookings;
  /** The venue's door key (the bookings module's door keys), read before any transaction. */
  doorKey(venueId: string): Promise<{ privateKey: string }>;
  /** A live venue by id (the venues module's), read on `conn`. */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /** The venue's ticket profiles, settings flattened (the profiles module's). */
  ticketProfiles(conn: Conn, venueId: string): Promise<TicketProfile[]>;
  /** The venue's bundles that apply to events (the catalogue module's). */
  eventBundles(venueId: string): Promise<unknown[]>;
  /** The venue's events booking policy text (the profiles module's). */
  eventsPolicy(venueId: string): Promise<string>;
  admission: AdmissionSources;
  /** Told, in the selling transaction, of each ticket sale confirmed (free or paid): the promoters module's ledger. */
  ticketSold?(
    conn: Conn,
    sale: { eventId: string; venueId: string; promoterId: string | null; bookingId: string; amountPence: number },
  ): Promise<void>;
  /**
   * The member discount (percent off) of the guest's running membership of the operator, 0 without one
   * (the memberships module's, docs/memberships.md), read on `conn`.
   */
  memberDiscountPct(conn: Conn, operatorId: string, userId: string): Promise<number>;
}

/**
 * The event status table (spec: Event status, decisions: Events):
 * - approve: from `pending_venue_approval` or `rejected` to `approved` (409 from anything else, and 409
 *   with `conflict` when another event holds the date);
 * - reject: from `pending_venue_approval` to `rejected`; any bookings of the event are cancelled and refunded;
 * - PATCH status `approved`, `draft` or `rejected`: from any status, refused (409) while the event has
 *   active bookings; `approved` also refused by a same-day clash;
 * - PATCH status `cancelled`: never refused by bookings; the event is cancelled first (no more sales),
 *   then every cancellable booking is refunded through the provider, cancelled and its guest mailed.
 *   Repeating it on a cancelled event finishes a cascade a provider failure interrupted.
 * Each answers `cancelled_bookings`: how many bookings the move cancelled.
 */
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { conflict } from '../../platform/errors.js';
import { activeEventBookings, COMMITTED_STATUSES, type EventBookings } from '../bookings/index.js';
import { eventById, moveEvent, type EventRow } from './events.repository.js';
import type { EventStatus } from './events.schemas.js';
import { eventLock, refuseClash, venueEventsLock, type EventsService } from './events.service.js';

export type SettableStatus = 'approved' | 'draft' | 'cancelled' | 'rejected';

/** Told, in the deciding transaction, when a promoter's submission is approved or rejected (the promoters module mails them). */
export type SubmissionDecided = (conn: Conn, event: EventRow, decision: 'approved' | 'rejected', reason: string | null) => Promise<void>;

export function createEventStatus(deps: {
  db: Db;
  clock: Clock;
  events: EventsService;
  eventBookings: EventBookings;
  submissionDecided?: SubmissionDecided;
}) {
  const { db, clock, events, eventBookings } = deps;

  const cancelBookings = (venue: VenueRow, event: EventRow, why: string, auth?: AuthInfo) =>
    eventBookings.cancelAll(venue, event.id, why, auth ? { kind: 'staff', id: auth.user.id, name: auth.user.name } : undefined);

  /**
   * Moves the event to `to` under its lock (and the venue's events lock for the clash check): 409 when
   * its status is not one of `from`, when `refuseWithBookings` and it has active bookings, or on a
   * same-day clash. Moving to the status it has is a no-op. Answers the event as it was.
   */
  async function move(
    event: EventRow,
    to: EventStatus,
    options: { from?: readonly string[]; refuseWithBookings: boolean; clashCheck: boolean; reason?: string | null },
  ): Promise<EventRow> {
    return withTransaction(db, async (trx) => {
      if (options.clashCheck) await lockKey(db, trx, venueEventsLock(event.venue_id));
      await lockKey(db, trx, eventLock(event.id));
      const current = (await eventById(trx, event.id))!;
      if (options.from && !options.from.includes(current.status)) {
        throw conflict(`This event is ${current.status.replace(/_/g, ' ')}: it cannot be moved to ${to.replace(/_/g, ' ')}`, {
          status: current.status,
        });
      }
      if (current.status === to) return current;
      if (options.refuseWithBookings) {
        const active = await activeEventBookings(trx, event.id);
        if (active.length > 0) {
          const committed = active.some((b) => (COMMITTED_STATUSES as readonly string[]).includes(b.status));
          throw conflict(
            current.status === 'approved' && to === 'draft' && committed
              ? 'The event is live with committed guests: it cannot go back to draft'
              : `The event has ${active.length} active booking${active.length === 1 ? '' : 's'}: cancel the event instead`,
            { active_bookings: active.length },
          );
        }
      }
      if (options.clashCheck) await refuseClash(trx, current.venue_id, current.event_date, current.id);
      if (!(await moveEvent(trx, event.id, current.status, to, clock.now().toISOString()))) {
        throw conflict('The event changed meanwhile: try again');
      }
      if (current.promoter_id && (to === 'approved' || to === 'rejected'))
        await deps.submissionDecided?.(trx, current, to, options.reason ?? null);
      return current;
    });
  }

  return {
    async approve(auth: AuthInfo, id: string) {
      const { event } = await events.reachableEvent(auth, id);
      await move(event, 'approved', { from: ['pending_venue_approval', 'rejected'], refuseWithBookings: false, clashCheck: true });
      return { success: true, cancelled_bookings: 0 };
    },

    /** `reason` (an extension) is mailed to the promoter who submitted the event. */
    async reject(auth: AuthInfo, id: string, reason?: string) {
      const { event, venue } = await events.reachableEvent(auth, id);
      const why = reason?.trim() || null;
      await move(event, 'rejected', { from: ['pending_venue_approval'], refuseWithBookings: false, clashCheck: false, reason: why });
      return { success: true, cancelled_bookings: await cancelBookings(venue, event, 'The event was not approved', auth) };
    },

    async set(auth: AuthInfo, id: string, to: SettableStatus) {
      const { event, venue } = await events.reachableEvent(auth, id);
      if (to === 'cancelled') {
        await move(event, 'cancelled', { refuseWithBookings: false, clashCheck: false });
        const cancelled = await cancelBookings(venue, event, 'The event was cancelled', auth);
        return { success: true, status: 'cancelled', cancelled_bookings: cancelled };
      }
      await move(event, to, { refuseWithBookings: true, clashCheck: to === 'approved' });
      return { success: true, status: to, cancelled_bookings: 0 };
    },
  };
}

export type EventStatusService = ReturnType<typeof createEventStatus>;

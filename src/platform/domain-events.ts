/**
 * Domain events: what happened to a booking, a ticket, a voucher or a guest, announced by the module that
 * made the change, inside the transaction that makes it, so that a listener's writes (the webhooks
 * module's outbox rows) commit or roll back with the change itself. The emitting module does not know
 * who listens (webhooks registers its listener in the composition root), so no module depends on webhooks.
 *
 * Listeners are named and registering a name again replaces it: a listener must keep no state of its own
 * (everything it needs comes with the connection and the event), since the test files of a worker share
 * this module while each builds its own application. A listener that throws fails the change.
 */
import type { Conn } from '../db/transaction.js';

/** Every event type a listener can receive (the webhooks' catalogue: docs/webhooks.md). */
export const DOMAIN_EVENT_TYPES = [
  'booking.created',
  'booking.updated',
  'booking.cancelled',
  'booking.checked_in',
  'ticket.sold',
  'voucher.issued',
  'voucher.redeemed',
  'guest.updated',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export interface DomainEvent {
  type: DomainEventType;
  /** The operator account whose data changed. */
  operatorId: string;
  /** The venue it happened at; null for account-wide changes (a guest's operator-wide tags). */
  venueId: string | null;
  /** When it happened (ISO 8601, the emitter's clock). */
  at: string;
  /** The object as it is after the change (booking, ticket sale, voucher, guest): the `data.object` of a webhook. */
  data: Record<string, unknown>;
}

export type DomainEventListener = (conn: Conn, event: DomainEvent) => Promise<void>;

const listeners = new Map<string, DomainEventListener>();

export const domainEvents = {
  /** Registers (or replaces) the listener of that name. */
  on(name: string, listener: DomainEventListener): void {
    listeners.set(name, listener);
  },
  /** Hands the event to every listener, on `conn` (the transaction of the change). */
  async emit(conn: Conn, event: DomainEvent): Promise<void> {
    for (const listener of listeners.values()) await listener(conn, event);
  },
};

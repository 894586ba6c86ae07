/**
 * The simulated provider's event outbox (`sim_events`): it tells the platform about checkout sessions
 * and account changes through signed webhook events, as the real provider does. An event is recorded in
 * the transaction that changes the state it reports, so none is lost if the process stops, and it is
 * retried with backoff until the platform accepts it, as the real provider retries its deliveries.
 */
import { newId } from '../../../platform/ids.js';
import { unix, type EventRow, type Executor, type SimContext } from './rows.js';

/** Undelivered events are retried with exponential backoff (1 minute doubling, at most hourly) for 3 days. */
const EVENT_RETRY_FIRST_MS = 60_000;
const EVENT_RETRY_MAX_MS = 3600_000;
const EVENT_RETRY_WINDOW_MS = 3 * 24 * 3600_000;

export interface SimulatedEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  data: { object: unknown };
}

/** Delivers an event to the platform's webhook, signed like the real provider's; throws when it was not accepted. */
export type EmitEvent = (event: SimulatedEvent) => Promise<void>;

export interface EventOutbox {
  /** Records an event for the platform inside the transaction that made the change it reports. */
  record(trx: Executor, type: string, object: unknown): Promise<void>;
  /** Delivers the events that are due (new, or due for a retry); returns how many were accepted. */
  deliverDueEvents(): Promise<number>;
}

const retryDelay = (attempts: number) => Math.min(EVENT_RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), EVENT_RETRY_MAX_MS);

export function createEventOutbox({ db, now, at }: SimContext, emit: EmitEvent): EventOutbox {
  const event = (type: string, object: unknown): SimulatedEvent => ({
    id: newId('evt'),
    object: 'event',
    type,
    created: unix(now()),
    livemode: false,
    data: { object },
  });

  async function record(trx: Executor, type: string, object: unknown): Promise<void> {
    const value = event(type, object);
    await trx
      .insertInto('sim_events')
      .values({ id: value.id, type, payload: JSON.stringify(value), status: 'pending', next_attempt_at: at(), created_at: at() })
      .execute();
  }

  /** Delivers one due event; the claim (moving its next attempt on) keeps two instances from both sending it. */
  async function deliverEvent(row: EventRow): Promise<boolean> {
    const attempts = row.attempts + 1;
    const claimed = await db.kysely
      .updateTable('sim_events')
      .set({ attempts, next_attempt_at: new Date(now().getTime() + retryDelay(attempts)).toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    try {
      await emit(JSON.parse(row.payload) as SimulatedEvent);
    } catch {
      // Not accepted (the sender logs why): retried at the next attempt, given up after the window.
      if (now().getTime() - new Date(row.created_at).getTime() >= EVENT_RETRY_WINDOW_MS) {
        await db.kysely.updateTable('sim_events').set({ status: 'failed' }).where('id', '=', row.id).execute();
      }
      return false;
    }
    await db.kysely.updateTable('sim_events').set({ status: 'delivered' }).where('id', '=', row.id).execute();
    return true;
  }

  async function deliverDueEvents(): Promise<number> {
    const due = await db.kysely
      .selectFrom('sim_events')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at())
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    let delivered = 0;
    for (const row of due) if (await deliverEvent(row)) delivered++;
    return delivered;
  }

  return { record, deliverDueEvents };
}

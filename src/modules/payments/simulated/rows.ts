/**
 * What the parts of the simulated provider share: the `sim_*` rows they read, the database and clock
 * they are built with, and the errors the real provider answers with.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import type {
  SimAccountLinksTable,
  SimAccountsTable,
  SimCheckoutSessionsTable,
  SimEventsTable,
  SimPaymentIntentsTable,
} from '../payments.table.js';
import { PaymentProviderError } from '../provider.js';

export type IntentRow = Selectable<SimPaymentIntentsTable>;
export type SessionRow = Selectable<SimCheckoutSessionsTable>;
export type AccountRow = Selectable<SimAccountsTable>;
export type LinkRow = Selectable<SimAccountLinksTable>;
export type EventRow = Selectable<SimEventsTable>;
/** The database or a transaction. */
export type Executor = Kysely<Database>;

/** What every part is built with. Times come from the injected clock, so tests can move them. */
export interface SimContext {
  db: Db;
  now(): Date;
  /** Now as the ISO timestamp the rows store. */
  at(): string;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const unix = (date: Date | string) => Math.floor(new Date(date).getTime() / 1000);

export const parseMetadata = (text: string): Record<string, string> => JSON.parse(text) as Record<string, string>;

export function missing(what: string, id: string): PaymentProviderError {
  return new PaymentProviderError('not_found', `No such ${what}: '${id}'`, 'resource_missing');
}

export function unexpectedState(what: string, status: string, action: string): PaymentProviderError {
  return new PaymentProviderError(
    'state',
    `This ${what} could not be ${action} because it has a status of ${status}.`,
    'payment_intent_unexpected_state',
  );
}

export function invalid(message: string, code: string | null = null): PaymentProviderError {
  return new PaymentProviderError('invalid_request', message, code);
}

/**
 * What a guest refused a taken slot is offered instead (an extension, decisions: Extensions): the
 * nearest bookable times of that date and the next dates with room, read from the cached availability
 * answer, so a crowd's refusals cost no transaction and no engine pass each. Used by book.service.ts
 * around both its checks (the cached picture's and the transaction's).
 */
import { clockMinutes } from '../../../domain/availability/index.js';
import { AppError } from '../../../platform/errors.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { metrics } from '../../../platform/metrics.js';
import type { BookBody } from './public.schemas.js';

/** The public availability answer of a date for a party (cached; availability.service.ts). */
export type Alternatives = (
  venueId: string,
  query: { date: string; party_size: number; type: 'tables' | 'guestlist' },
) => Promise<{ slots: { time: string; access_rule_id: string; available: boolean }[]; next_available_dates: string[] }>;

/** Refusals that mean "taken": the guest is offered somewhere else to go. */
const TAKEN_REASONS = new Set<unknown>(['no_table', 'max_covers', 'door_capacity', 'free_full']);

/** Orders `HH:MM` times by how near they are to `asked`, the earlier first when two are as near. */
export function nearestFirst(asked: string): (a: string, b: string) => number {
  const at = clockMinutes(asked);
  return (a, b) => Math.abs(clockMinutes(a) - at) - Math.abs(clockMinutes(b) - at) || a.localeCompare(b);
}

/** How many nearest times and next dates a refusal offers. */
const ALTERNATIVES_OFFERED = 3;

/**
 * Runs `fn`; a 409 saying the slot is taken gets `alternatives` (extension): the nearest bookable times
 * that day for the party (`times`, with their access rule) and the next dates with room (`dates`), from
 * the cached availability answer, so a crowd's refusals cost no transaction and no engine pass each.
 */
export async function withAlternatives<T>(
  alternatives: Alternatives,
  venue: VenueRow,
  body: BookBody,
  stage: 'cached' | 'transaction',
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 409 || !TAKEN_REASONS.has(error.extra.reason)) throw error;
    metrics.soldOut('booking', stage);
    const type = body.rule_type === 'table' ? 'tables' : 'guestlist';
    const day = await alternatives(venue.id, { date: body.date, party_size: body.party_size, type });
    const nearer = nearestFirst(body.time);
    const times = day.slots
      .filter((slot) => slot.available && slot.time !== body.time)
      .sort((a, b) => nearer(a.time, b.time))
      .slice(0, ALTERNATIVES_OFFERED)
      .map((slot) => ({ time: slot.time, access_rule_id: slot.access_rule_id }));
    const dates = day.next_available_dates.slice(0, ALTERNATIVES_OFFERED);
    throw new AppError(409, error.message, { ...error.extra, alternatives: { times, dates } }, error.headers);
  }
}

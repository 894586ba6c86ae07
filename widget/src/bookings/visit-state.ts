/** What one visit to the bookings widget keeps (in the visit store, so a reload resumes it). */
import { idempotencyKey } from '../lib/api';
import type { BookingConfig, GuestDetails, PendingBooking, Slot } from './types';

export type Step = 'search' | 'details' | 'pay' | 'done';

export interface State {
  step: Step;
  partySize: number;
  date: string;
  slot: Slot | null;
  tableId: string | null;
  /** Bundles to add, by id: how many. */
  bundles: Record<string, number>;
  details: GuestDetails;
  pending: PendingBooking | null;
  /** The slot (`rule|time`) the API just refused: left out of the fresh times shown with the reason. */
  refused?: string | null;
  /** Sent with every try of one booking, so a retry after a lost answer books once. */
  attemptKey: string;
}

export const HORIZON_DAYS = 90;

export function initialState(config: BookingConfig, today: string, saved: State | null): State {
  // A saved visit from an earlier day starts again from today.
  if (saved && saved.date >= today) return saved;
  const min = Math.max(1, config.booking.default_party_min);
  return {
    step: 'search',
    partySize: Math.min(Math.max(2, min), Math.max(min, config.booking.default_party_max)),
    date: today,
    slot: null,
    tableId: null,
    bundles: {},
    details: { name: '', email: '', phone: '' },
    pending: null,
    attemptKey: idempotencyKey(),
  };
}

/**
 * Booking changes from the floor: applied to the cached day at once (optimistic), rolled back with the
 * server's message when it refuses (409 and the rest), and the day refetched either way.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, call } from '../api/client';
import { floorKey, type Booking } from './data';

export interface Change {
  bookingId: string;
  /** What the floor shows at once. */
  patch?: Partial<Booking>;
  /** Words for the live region once done, e.g. "Moved Ada to table 5". */
  done: string;
  run: () => Promise<unknown>;
}

export type Report = (message: string, kind: 'ok' | 'error', ref?: string) => void;

export function useBookingChange(venueId: string, date: string, report: Report) {
  const client = useQueryClient();
  const key = [...floorKey(venueId), 'bookings', date];
  return useMutation({
    mutationFn: (change: Change) => change.run(),
    onMutate: async (change) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Booking[]>(key);
      if (before && change.patch)
        client.setQueryData<Booking[]>(
          key,
          before.map((b) => (b.id === change.bookingId ? { ...b, ...change.patch } : b)),
        );
      return { before };
    },
    onError: (error, _change, context) => {
      if (context?.before) client.setQueryData(key, context.before);
      report(`Not changed: ${error.message}`, 'error', error instanceof ApiError ? error.requestId : undefined);
    },
    onSuccess: (_data, change) => report(change.done, 'ok'),
    onSettled: () => client.invalidateQueries({ queryKey: floorKey(venueId) }),
  });
}

const id = (bookingId: string) => ({ params: { path: { id: bookingId } } });

/** The booking actions the floor and the drawer offer, as API calls. */
export const bookingApi = {
  assign: (bookingId: string, tableIds: string[]) =>
    tableIds.length === 0
      ? call(api.POST('/api/bookings/{id}/unassign-table', id(bookingId)))
      : call(api.POST('/api/bookings/{id}/assign-table', { ...id(bookingId), body: { table_ids: tableIds } })),
  /** A new start (venue-local `time` on `date`), keeping the length; `tableIds` omitted keeps the tables, `[]` unassigns. */
  move: (bookingId: string, at: { date: string; time: string }, tableIds?: string[]) =>
    call(api.POST('/api/bookings/{id}/move', { ...id(bookingId), body: { ...at, ...(tableIds ? { table_ids: tableIds } : {}) } })),
  duration: (bookingId: string, minutes: number) =>
    call(api.POST('/api/bookings/{id}/duration', { ...id(bookingId), body: { duration_minutes: minutes } })),
  status: (bookingId: string, status: 'checked_in' | 'no_show' | 'confirmed' | 'cancelled', force = false) =>
    call(api.PATCH('/api/bookings/{id}/status', { ...id(bookingId), body: { status, ...(force ? { force } : {}) } })),
  approve: (bookingId: string) => call(api.POST('/api/bookings/{id}/approve', id(bookingId))),
  reject: (bookingId: string) => call(api.POST('/api/bookings/{id}/reject', id(bookingId))),
  close: (bookingId: string) => call(api.POST('/api/bookings/{id}/close', id(bookingId))),
  lock: (bookingId: string, locked: boolean) => call(api.POST('/api/bookings/{id}/lock', { ...id(bookingId), body: { locked } })),
  autoAssign: (bookingId: string) => call(api.POST('/api/bookings/{id}/auto-assign', id(bookingId))),
  arrived: (bookingId: string, value: boolean) =>
    call(api.POST('/api/bookings/{id}/lifecycle', { ...id(bookingId), body: { flag: 'arrived', value } })),
  late: (bookingId: string, value: boolean) =>
    call(api.POST('/api/bookings/{id}/lifecycle', { ...id(bookingId), body: { flag: 'late', value } })),
  capture: (bookingId: string, amountPence?: number) =>
    call(api.POST('/api/bookings/{id}/hold/capture', { ...id(bookingId), body: amountPence ? { amount_pence: amountPence } : {} })),
  release: (bookingId: string) => call(api.POST('/api/bookings/{id}/hold/release', id(bookingId))),
  requestHold: (bookingId: string, amountPence?: number) =>
    call(api.POST('/api/bookings/{id}/hold/request', { ...id(bookingId), body: amountPence ? { amount_pence: amountPence } : {} })),
  note: (bookingId: string, notes: string) => call(api.PATCH('/api/bookings/{id}/details', { ...id(bookingId), body: { notes } })),
  cancel: (bookingId: string, reason: string, refund: boolean) =>
    call(api.POST('/api/bookings/{id}/staff-cancel', { ...id(bookingId), body: { reason: reason || undefined, refund } })),
};

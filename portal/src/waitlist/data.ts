/** What the Waitlist page reads and sends: the day's lists, the quote for a new party, and the entry actions. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, call } from '../api/client';
import type { paths } from '../api/schema';

const base = '/api/my-venues/{venueId}/waitlist' as const;
type Json<T> = T extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;

export type Entry = Json<paths[typeof base]['get']>['data'][number];

export const waitlistKey = (venueId: string) => ['waitlist', venueId] as const;

/** Today's open entries of both lists, kept fresh (waits move with the floor). */
export function useWaitlist(venueId: string) {
  return useQuery({
    queryKey: [...waitlistKey(venueId), 'list'],
    queryFn: async () => (await call(api.GET(base, { params: { path: { venueId }, query: {} } }))).data,
    refetchInterval: 30_000,
  });
}

export function quote(venueId: string, partySize: number) {
  return call(api.GET(`${base}/quote`, { params: { path: { venueId }, query: { party_size: partySize } } }));
}

export function addWalkIn(venueId: string, body: { party_size: number; guest_name: string; guest_phone?: string; notes?: string }) {
  return call(api.POST(base, { params: { path: { venueId } }, body }));
}

export function notify(venueId: string, id: string) {
  return call(api.POST(`${base}/{id}/notify`, { params: { path: { venueId, id } } }));
}

export function seat(venueId: string, id: string) {
  return call(api.POST(`${base}/{id}/seat`, { params: { path: { venueId, id } }, body: {} }));
}

export function remove(venueId: string, id: string, noShow: boolean) {
  return call(api.POST(`${base}/{id}/remove`, { params: { path: { venueId, id } }, body: noShow ? { no_show: true } : {} }));
}

export function useRefreshWaitlist(venueId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: waitlistKey(venueId) });
}

export const messageOf = (error: unknown) =>
  error instanceof ApiError || (error instanceof Error && !(error instanceof TypeError))
    ? error.message
    : 'The server could not be reached: check the connection and try again.';

/** A wait in words: "now", "15 min", "1 h 20 min", or that no single table seats the party. */
export function waitWords(minutes: number | null): string {
  if (minutes === null) return 'no table seats this party';
  if (minutes === 0) return 'now';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h${m > 0 ? ` ${m} min` : ''}` : `${m} min`;
}

export const STATUS_WORDS: Record<string, string> = {
  waiting: 'Waiting',
  notified: 'Told table is ready',
  offered: 'Offered a table',
  accepting: 'Booking',
  booked: 'Booked',
  seated: 'Seated',
  expired: 'Expired',
  left: 'Left',
  removed: 'Removed',
  no_show: 'No-show',
};

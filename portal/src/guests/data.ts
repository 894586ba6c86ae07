/**
 * What the guest screens read (`/api/my-guests…`) and how they show it: every query is keyed under
 * `['guests']`, so a tag change or an erasure refreshes the roster and the detail with one invalidation.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, ApiError, call } from '../api/client';
import type { paths } from '../api/schema';
import { serverNow, venueLocal } from '../floor/time';

export type Guest = paths['/api/my-guests']['get']['responses'][200]['content']['application/json']['data'][number];
export type GuestDetail = paths['/api/my-guests/{id}']['get']['responses'][200]['content']['application/json'];
export type Network = paths['/api/my-guests/{id}/network']['get']['responses'][200]['content']['application/json'];

export const guestsKey = ['guests'] as const;
const PAGE = 50;

/** The "last seen" filter: a window of days back from now, inside (`within`) or outside it (`over`). */
export type Seen = 'any' | 'within-30' | 'within-90' | 'within-365' | 'over-90' | 'over-365';
export const SEEN_CHOICES: { id: Seen; label: string }[] = [
  { id: 'any', label: 'Any time' },
  { id: 'within-30', label: 'In the last 30 days' },
  { id: 'within-90', label: 'In the last 90 days' },
  { id: 'within-365', label: 'In the last year' },
  { id: 'over-90', label: 'Not for over 90 days' },
  { id: 'over-365', label: 'Not for over a year' },
];

function seenRange(seen: Seen): { seen_since?: string; seen_before?: string } {
  if (seen === 'any') return {};
  const [side, days] = seen.split('-');
  const instant = new Date(serverNow().getTime() - Number(days) * 86_400_000).toISOString();
  return side === 'within' ? { seen_since: instant } : { seen_before: instant };
}

/** The roster (cursor paging, latest seen first), narrowed by tag and last seen. */
export function useRoster(filter: { tag: string; seen: Seen }, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...guestsKey, 'roster', filter],
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/my-guests', {
          params: {
            query: {
              paging: 'cursor',
              limit: PAGE,
              ...(pageParam ? { cursor: pageParam } : {}),
              ...(filter.tag ? { tag: filter.tag } : {}),
              ...seenRange(filter.seen),
            },
          },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => ('cursor' in last && last.has_more && last.cursor ? last.cursor : undefined),
    enabled,
  });
}

/** Roster search (name, email, phone or its last digits); at most 50. */
export function useGuestSearch(q: string) {
  return useQuery({
    queryKey: [...guestsKey, 'search', q],
    queryFn: () => call(api.GET('/api/my-guests/search', { params: { query: { q } } })),
    enabled: q.trim().length >= 2,
    staleTime: 15_000,
  });
}

export const useGuest = (id: string) =>
  useQuery({
    queryKey: [...guestsKey, id, 'detail'],
    queryFn: () => call(api.GET('/api/my-guests/{id}', { params: { path: { id } } })),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

export const useGuestBookings = (id: string) =>
  useQuery({
    queryKey: [...guestsKey, id, 'bookings'],
    queryFn: () => call(api.GET('/api/my-guests/{id}/bookings', { params: { path: { id } } })),
  });

export const useGuestBilling = (id: string) =>
  useQuery({
    queryKey: [...guestsKey, id, 'billing'],
    queryFn: () => call(api.GET('/api/my-guests/{id}/billing', { params: { path: { id } } })),
  });

export const useGuestActivity = (id: string) =>
  useQuery({
    queryKey: [...guestsKey, id, 'activity'],
    queryFn: () => call(api.GET('/api/my-guests/{id}/activity', { params: { path: { id } } })),
  });

export const useGuestNetwork = (id: string) =>
  useQuery({
    queryKey: [...guestsKey, id, 'network'],
    queryFn: () => call(api.GET('/api/my-guests/{id}/network', { params: { path: { id } } })),
  });

/** A walk-in record's synthesised email (`walkin+<id>@guests.invalid`) reaches no one. */
export const isWalkIn = (email: string) => /@guests\.invalid$/i.test(email);

export const pounds = (pence: number) =>
  `${pence < 0 ? '−' : ''}£${(Math.abs(pence) / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A calendar date (`YYYY-MM-DD`, venue-local already) as "Sat 13 Jun 2026". */
export const dayOf = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });

/** An instant as the venue's local date and time. */
export function momentOf(instant: string, timeZone: string): string {
  const local = venueLocal(new Date(instant), timeZone);
  return `${dayOf(local.date)}, ${local.time}`;
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong');

export const STATUS_WORDS: Record<string, string> = {
  pending: 'Pending',
  pending_payment: 'Awaiting payment',
  confirmed: 'Confirmed',
  approved: 'Approved',
  checked_in: 'Checked in',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No-show',
  rejected: 'Rejected',
  expired: 'Expired',
  refused: 'Refused at the door',
};
export const statusWord = (status: string) => STATUS_WORDS[status] ?? status.replace(/_/g, ' ');

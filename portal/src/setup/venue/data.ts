/**
 * What the venue set-up pages read: the venue itself, what going live still misses, and the counts and
 * flags the checklist is computed from. Every query is keyed under `['setup', venueId]`, so a save
 * refreshes the checklist with one invalidation.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, call } from '../../api/client';
import type { paths } from '../../api/schema';

export type VenueRecord = paths['/api/my-venues/{id}']['get']['responses'][200]['content']['application/json'];
export type VenueChanges = NonNullable<paths['/api/my-venues/{id}']['put']['requestBody']>['content']['application/json'];

export const setupKey = (venueId: string | undefined) => ['setup', venueId ?? ''] as const;

export function useVenueRecord(venueId: string | undefined) {
  return useQuery({
    queryKey: [...setupKey(venueId), 'venue'],
    queryFn: () => call(api.GET('/api/my-venues/{id}', { params: { path: { id: venueId! } } })),
    enabled: Boolean(venueId),
  });
}

export function useReadiness(venueId: string | undefined) {
  return useQuery({
    queryKey: [...setupKey(venueId), 'readiness'],
    queryFn: () => call(api.GET('/api/my-venues/{id}/readiness', { params: { path: { id: venueId! } } })),
    enabled: Boolean(venueId),
    // What going live misses is set on other screens (the logo on branding, say): read again on opening.
    refetchOnMount: 'always',
  });
}

/** After a change to the venue: its record, readiness, the checklist and the shell's venue list. */
export function useRefreshVenue(venueId: string | undefined) {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: setupKey(venueId) }), client.invalidateQueries({ queryKey: ['venues'] })]);
}

/** Saves a subset of the venue's fields; throws the server's refusal as an ApiError. */
export async function saveVenue(venueId: string, changes: VenueChanges) {
  await call(api.PUT('/api/my-venues/{id}', { params: { path: { id: venueId } }, body: changes }));
}

/** The message of a failed request or check, in words (a failed fetch is a TypeError). */
export const messageOf = (error: unknown) =>
  error instanceof ApiError || (error instanceof Error && !(error instanceof TypeError))
    ? error.message
    : 'The server could not be reached: check the connection and try again.';

/** Go-live's field names, as the venue's settings call them. */
const FIELD_WORDS: Record<string, string> = {
  name: 'Venue name',
  address: 'Address',
  venue_type: 'Venue type',
  phone: 'Phone number',
  email: 'Email address',
  backdoor_capacity: 'Door capacity',
  last_entry_time: 'Last entry time',
  logo: 'Logo',
};

/** Where on the venue page each go-live field is set. */
const FIELD_SECTIONS: Record<string, string> = {
  name: 'details',
  venue_type: 'details',
  address: 'address',
  phone: 'contact',
  email: 'contact',
  backdoor_capacity: 'door',
  last_entry_time: 'door',
  logo: 'images',
};

export const fieldWords = (field: string) => FIELD_WORDS[field] ?? field.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
export const fieldSection = (field: string) => FIELD_SECTIONS[field] ?? 'details';

/** Money in pence as £ with pence. */
export const pounds = (pence: number) =>
  `${pence < 0 ? '−' : ''}£${(Math.abs(pence) / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * An uploaded image's address as this page loads it: uploads are served by the server the portal comes
 * from, so an absolute address under `/uploads/` (the server's public base) is fetched from this origin.
 */
export function uploadSrc(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.pathname.startsWith('/uploads/') ? parsed.pathname : url;
  } catch {
    return url;
  }
}

/** Who is signed in, what they may do (`GET /api/me/permissions`) and which venues they run. */
import { useQuery } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import { api, call } from '../api/client';
import { session } from '../api/session';

export const useSession = () => useSyncExternalStore(session.subscribe, session.get);

export function usePermissions() {
  const { session: current } = useSession();
  return useQuery({
    queryKey: ['permissions', current?.user.id],
    queryFn: () => call(api.GET('/api/me/permissions')),
    enabled: Boolean(current),
    staleTime: 60_000,
  });
}

/** `can('bookings', 'write')`: false until the permissions are known (so a button is never offered and then refused). */
export function useCan() {
  const { data } = usePermissions();
  return (key: string, action: 'read' | 'write') => {
    const grant = (data?.permissions as Record<string, { read: boolean; write: boolean }> | undefined)?.[key];
    return Boolean(grant?.[action]);
  };
}

/**
 * The venues the caller may work on, with each one's zone and today (`GET /api/my-floor-venues`: any
 * portal user of the account, so roles without the venue settings permission have them too).
 */
export function useVenues() {
  const { session: current } = useSession();
  return useQuery({
    queryKey: ['venues', current?.user.id],
    queryFn: () => call(api.GET('/api/my-floor-venues')),
    enabled: Boolean(current),
    staleTime: 60_000,
    select: (answer) => answer.data,
  });
}

export type Venue = NonNullable<ReturnType<typeof useVenues>['data']>[number];

/** The venue the page is about: `?venue=` when it names one of the caller's venues, else their first. */
export function useCurrentVenue(): Venue | undefined {
  const { data: venues } = useVenues();
  const wanted = useRouterState({ select: (state) => (state.location.search as { venue?: string }).venue });
  return venues?.find((venue) => venue.id === wanted) ?? venues?.[0];
}

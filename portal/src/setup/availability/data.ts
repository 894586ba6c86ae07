/**
 * The venue's availability settings and the catalogue items they point at, one query each
 * (`['setup', venueId, <what>]`), so a save refetches only what it changed.
 */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useCan } from '../../shell/account';

export const setupKey = (venueId: string, what: string) => ['setup', venueId, what];
const at = (venueId: string) => ({ params: { path: { venueId } } });

export function useTimePeriods(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'time-periods'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/time-periods', at(venueId)))).data,
  });
}

export function useShifts(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'shifts'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/shifts', at(venueId)))).data,
  });
}

export function useAccessRules(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'access-rules'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/access-rules', at(venueId)))).data,
  });
}

export function useBlackouts(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'blackouts'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/blackouts', at(venueId)))).data,
  });
}

/** Payment policies (`profiles` read): none when the role may not read them. */
export function usePaymentPolicies(venueId: string) {
  const can = useCan();
  return useQuery({
    queryKey: setupKey(venueId, 'payment-policies'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/payment-policies', at(venueId)))).data,
    enabled: can('profiles', 'read'),
  });
}

/** Price lists (`tables` read). */
export function usePricelists(venueId: string) {
  const can = useCan();
  return useQuery({
    queryKey: setupKey(venueId, 'pricelists'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/pricelists', at(venueId)))).data,
    enabled: can('tables', 'read'),
  });
}

export type TimePeriod = NonNullable<ReturnType<typeof useTimePeriods>['data']>[number];
export type Shift = NonNullable<ReturnType<typeof useShifts>['data']>[number];
export type AccessRule = NonNullable<ReturnType<typeof useAccessRules>['data']>[number];
export type Blackout = NonNullable<ReturnType<typeof useBlackouts>['data']>[number];

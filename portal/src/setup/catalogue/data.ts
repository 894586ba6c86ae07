/** The catalogue's own lists (bundles, promo codes, tags, profiles, admission groups), one query each. */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { setupKey } from '../availability/data';

const at = (venueId: string) => ({ params: { path: { venueId } } });

export function useBundles(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'bundles'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/bundles', at(venueId)))).data,
  });
}

export function usePromoCodes(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'promo-codes'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/promo-codes', at(venueId)))).data,
  });
}

export function useTagCatalogue(venueId: string, kind: 'guest' | 'reservation') {
  return useQuery({
    queryKey: setupKey(venueId, `tags-${kind}`),
    queryFn: async () =>
      (await call(api.GET('/api/my-venues/{venueId}/tag-catalogue', { params: { path: { venueId }, query: { kind } } }))).data,
  });
}

export function useAdmissionGroups(venueId: string) {
  return useQuery({
    queryKey: setupKey(venueId, 'admission-groups'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/admission-groups', at(venueId)))).data,
  });
}

export type Bundle = NonNullable<ReturnType<typeof useBundles>['data']>[number];
export type PromoCode = NonNullable<ReturnType<typeof usePromoCodes>['data']>[number];
export type AdmissionGroup = NonNullable<ReturnType<typeof useAdmissionGroups>['data']>[number];

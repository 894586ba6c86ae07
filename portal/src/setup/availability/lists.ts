/**
 * What an access rule can point at besides policies and price lists: seating areas (`tables` read),
 * bundles (`catalogue` read) and table and guest-list profiles (`profiles` read); each is an empty
 * list when the role may not read it. Keys are the catalogue screen's, so both share one cache.
 */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useCan } from '../../shell/account';
import { setupKey } from './data';

interface Named {
  id: string;
  name: string;
}

export function useSetupLists(venueId: string) {
  const can = useCan();
  const at = { params: { path: { venueId } } };
  const areas = useQuery({
    queryKey: setupKey(venueId, 'seating-areas'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/seating-areas', at))).data as Named[],
    enabled: can('tables', 'read'),
  });
  const bundles = useQuery({
    queryKey: setupKey(venueId, 'bundles'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/bundles', at))).data,
    enabled: can('catalogue', 'read'),
  });
  const tableProfiles = useQuery({
    queryKey: setupKey(venueId, 'table-profiles'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/table-profiles', at))).data as Named[],
    enabled: can('profiles', 'read'),
  });
  const listProfiles = useQuery({
    queryKey: setupKey(venueId, 'list-profiles'),
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/list-profiles', at))).data as Named[],
    enabled: can('profiles', 'read'),
  });
  return {
    areas: areas.data ?? [],
    bundles: (bundles.data ?? []) as Named[],
    tableProfiles: tableProfiles.data ?? [],
    listProfiles: listProfiles.data ?? [],
  };
}

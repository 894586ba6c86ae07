/** What the promoter pages read: the venue's promoters and submissions, and a promoter's own venues, events, sales and earnings. */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';

const at = (venueId: string) => ({ params: { path: { venueId } } });

export const venuePromotersKey = (venueId: string) => ['venue-promoters', venueId] as const;

export function useVenuePromoters(venueId: string) {
  return useQuery({
    queryKey: [...venuePromotersKey(venueId), 'list'],
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/promoters', at(venueId)))).data,
  });
}

export function useSubmissions(venueId: string) {
  return useQuery({
    queryKey: [...venuePromotersKey(venueId), 'submissions'],
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/promoters/submissions', at(venueId)))).data,
  });
}

export function usePromoterInvitations(venueId: string) {
  return useQuery({
    queryKey: [...venuePromotersKey(venueId), 'invitations'],
    queryFn: async () => (await call(api.GET('/api/my-venues/{venueId}/promoters/invitations', at(venueId)))).data,
  });
}

export const promoterKey = ['promoter'] as const;

export function useMyAgreements() {
  return useQuery({
    queryKey: [...promoterKey, 'agreements'],
    queryFn: async () => (await call(api.GET('/api/promoter/agreements'))).data,
  });
}

export function useMyEvents() {
  return useQuery({ queryKey: [...promoterKey, 'events'], queryFn: async () => (await call(api.GET('/api/promoter/events'))).data });
}

const eventPath = (id: string) => ({ params: { path: { id } } });

export function useEventStats(id: string) {
  return useQuery({ queryKey: [...promoterKey, 'stats', id], queryFn: () => call(api.GET('/api/my-events/{id}/stats', eventPath(id))) });
}

export function useDoorList(id: string) {
  return useQuery({
    queryKey: [...promoterKey, 'door', id],
    queryFn: async () => (await call(api.GET('/api/my-events/{id}/bookings', eventPath(id)))).data,
  });
}

export function useSales(id: string) {
  return useQuery({
    queryKey: [...promoterKey, 'sales', id],
    queryFn: () => call(api.GET('/api/promoter/events/{id}/sales', eventPath(id))),
  });
}

export function useEarnings() {
  return useQuery({ queryKey: [...promoterKey, 'earnings'], queryFn: () => call(api.GET('/api/promoter/earnings')) });
}

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
/** Integer pence as £. */
export const money = (pence: number) => pounds.format(pence / 100);

export const STATUS_WORDS: Record<string, string> = {
  pending_venue_approval: 'Awaiting the venue',
  approved: 'Approved',
  rejected: 'Rejected',
  draft: 'Draft',
  cancelled: 'Cancelled',
  pending: 'Requested',
  active: 'Active',
  declined: 'Declined',
  ended: 'Ended',
};
export const words = (status: string) => STATUS_WORDS[status] ?? status.replace(/_/g, ' ');

/** The webhook settings' data: the account's endpoints and one endpoint's delivery log (docs/webhooks.md). */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';

export const webhooksKey = (...what: string[]) => ['webhooks', ...what];

/** The event catalogue, in the order the form offers it. */
export const EVENT_TYPES = [
  ['booking.created', 'Booking created'],
  ['booking.updated', 'Booking updated'],
  ['booking.cancelled', 'Booking cancelled'],
  ['booking.checked_in', 'Booking checked in'],
  ['ticket.sold', 'Ticket sold'],
  ['voucher.issued', 'Voucher issued'],
  ['voucher.redeemed', 'Voucher redeemed'],
  ['guest.updated', 'Guest updated'],
] as const;
export type EventType = (typeof EVENT_TYPES)[number][0];

export function useEndpoints() {
  return useQuery({
    queryKey: webhooksKey('endpoints'),
    queryFn: async () => (await call(api.GET('/api/my-operator/webhooks'))).data,
  });
}

export function useDeliveries(endpointId: string) {
  return useQuery({
    queryKey: webhooksKey('deliveries', endpointId),
    queryFn: async () =>
      (await call(api.GET('/api/my-operator/webhooks/{id}/deliveries', { params: { path: { id: endpointId }, query: { limit: 50 } } })))
        .data,
  });
}

export type Endpoint = NonNullable<ReturnType<typeof useEndpoints>['data']>[number];
export type Delivery = NonNullable<ReturnType<typeof useDeliveries>['data']>[number];

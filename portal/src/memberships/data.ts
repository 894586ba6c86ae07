/**
 * What the Memberships page reads and sends: the account's membership tiers (with their running
 * members), and the money and period wording (integer pence in, £ out; pounds as typed in, pence out).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, call } from '../api/client';
import type { paths } from '../api/schema';

type Json<T> = T extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;
export type Tier = Json<paths['/api/my-operator/membership-tiers']['get']>['data'][number];
export type TierInput = NonNullable<paths['/api/my-operator/membership-tiers']['post']['requestBody']>['content']['application/json'];

const tiersKey = ['membership-tiers'] as const;

export function useTiers() {
  return useQuery({
    queryKey: tiersKey,
    queryFn: async () => (await call(api.GET('/api/my-operator/membership-tiers'))).data,
  });
}

export function useRefreshTiers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: tiersKey });
}

export const createTier = (body: TierInput) => call(api.POST('/api/my-operator/membership-tiers', { body }));
export const updateTier = (id: string, body: Partial<TierInput>) =>
  call(api.PATCH('/api/my-operator/membership-tiers/{id}', { params: { path: { id } }, body }));
export const deleteTier = (id: string) => call(api.DELETE('/api/my-operator/membership-tiers/{id}', { params: { path: { id } } }));

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
/** Integer pence as £, e.g. 2500 → £25.00. */
export const money = (pence: number) => pounds.format(pence / 100);

/** Pounds as typed (`25`, `25.50`, `£25`) into whole pence; null when it is not an amount. */
export function penceOf(text: string): number | null {
  const cleaned = text.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** A tier's period in words: "month", "year", "30 days". */
export function periodWords(tier: Pick<Tier, 'period' | 'period_days'>): string {
  if (tier.period === 'monthly') return 'month';
  if (tier.period === 'yearly') return 'year';
  return tier.period_days === 1 ? 'day' : `${tier.period_days ?? 1} days`;
}

export const messageOf = (error: unknown) =>
  error instanceof ApiError || (error instanceof Error && !(error instanceof TypeError))
    ? error.message
    : 'The server could not be reached: check the connection and try again.';

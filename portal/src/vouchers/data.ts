/**
 * What the Vouchers page reads and sends: the settings, the list over the venue and its sister venues,
 * a look-up by code, and the money helpers (integer pence in, £ out; pounds as typed in, pence out).
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, call } from '../api/client';
import type { paths } from '../api/schema';

const base = '/api/my-venues/{venueId}' as const;
type Json<T> = T extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;

export type VoucherSettings = Json<paths[`${typeof base}/voucher-settings`]['get']>['data'];
export type Lookup = Json<paths[`${typeof base}/vouchers/lookup`]['get']>;

export const vouchersKey = (venueId: string) => ['vouchers', venueId] as const;
const at = (venueId: string) => ({ params: { path: { venueId } } });

export function useVoucherSettings(venueId: string) {
  return useQuery({
    queryKey: [...vouchersKey(venueId), 'settings'],
    queryFn: async () => (await call(api.GET(`${base}/voucher-settings`, at(venueId)))).data,
  });
}

export const PAGE_SIZE = 25;

export function useVoucherList(venueId: string, offset: number) {
  return useQuery({
    queryKey: [...vouchersKey(venueId), 'list', offset],
    queryFn: () => call(api.GET(`${base}/vouchers`, { params: { path: { venueId }, query: { limit: PAGE_SIZE, offset } } })),
    placeholderData: keepPreviousData,
  });
}

export function lookUp(venueId: string, code: string) {
  return call(api.GET(`${base}/vouchers/lookup`, { params: { path: { venueId }, query: { code } } }));
}

/** After a change: the list, and any look-up shown, read again. */
export function useRefreshVouchers(venueId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: vouchersKey(venueId) });
}

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
/** Integer pence as £, e.g. 2500 → £25.00. */
export const money = (pence: number) => pounds.format(pence / 100);

/** Pounds as typed (`25`, `25.50`, `£25`) into whole pence; null when it is not an amount. */
export function penceOf(text: string): number | null {
  const cleaned = text.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** Pence as pounds to type over, e.g. 2500 → "25.00". */
export const poundsText = (pence: number) => (pence / 100).toFixed(2);

/** The code as shown: XXXX-XXXX-XXXX. */
export const grouped = (code: string) => code.replace(/(.{4})(?=.)/g, '$1-');

export const messageOf = (error: unknown) =>
  error instanceof ApiError || (error instanceof Error && !(error instanceof TypeError))
    ? error.message
    : 'The server could not be reached: check the connection and try again.';

/** Why a voucher cannot be spent, in words. */
export const REASONS: Record<string, string> = {
  ok: 'Can be spent',
  not_found: 'No voucher has this code',
  wrong_venue: 'This voucher belongs to a venue that is not this one or one of its sister venues',
  refunded: 'This voucher was refunded',
  already_redeemed: 'This voucher has been spent in full',
  expired: 'This voucher has expired',
  insufficient_balance: 'The amount is more than what is left on the voucher',
};

export const STATUS_WORDS: Record<string, string> = {
  active: 'Active',
  redeemed: 'Spent',
  refunded: 'Refunded',
  expired: 'Expired',
};

/**
 * The demo venue's gift vouchers: on sale (settings and the vouchers widget on), and one voucher in each
 * status a venue sees — active, part spent, redeemed, refunded (sold at the till through the simulated
 * card form, when that provider runs) and expired. Made through the API as the demo Owner, except the
 * expired one, which needs an issue date a year back (`seedDemoVoucher`). Only a venue without vouchers
 * gets them, so a second run adds nothing.
 */
import type { Db } from '../db/connect.js';
import { seedDemoVoucher } from '../modules/vouchers/index.js';
import type { Clock } from '../platform/clock.js';

/** The demo's API client (demo.ts): calls as the demo Owner that throw unless answered 200. */
export interface DemoApi {
  get<T>(url: string): Promise<T>;
  post<T = unknown>(url: string, payload?: object): Promise<T>;
  put(url: string, payload: object): Promise<unknown>;
}

const SIMULATED_KEY = 'pk_test_simulated';

export async function addDemoVouchers(
  api: DemoApi,
  services: { db: Db; clock: Clock },
  venue: { id: string; operatorId: string; timezone: string },
): Promise<void> {
  const base = `/api/my-venues/${venue.id}`;
  if ((await api.get<{ total: number }>(`${base}/vouchers?limit=1`)).total > 0) return;

  await api.put(`${base}/voucher-settings`, {
    enabled: true,
    expiration_months: 12,
    min_amount_pence: 1000,
    max_amount_pence: 20000,
    fixed_amounts: [2500, 5000, 10000],
    allow_custom: true,
    min_qty: 1,
    max_qty: 5,
    terms: 'Valid at The Night Owl for 12 months; can be spent over several visits. No cash alternative.',
  });
  await api.put(`${base}/widget-settings/vouchers`, { enabled: true });

  // Expired: issued thirteen months ago under twelve months' terms.
  const issuedAt = new Date(services.clock.now().getTime() - 395 * 24 * 3600_000);
  await seedDemoVoucher(services.db, venue, { issuedAt, amountPence: 2500, expirationMonths: 12, recipientName: 'Oliver Bennett' });

  const issue = (amount: number, recipient: string, message: string) =>
    api.post<{ code: string }>(`${base}/vouchers`, { amount_pence: amount, mode: 'comp', recipient_name: recipient, message });
  const spent = await issue(2500, 'Priya Sharma', 'Thank you for the review!');
  await api.post(`${base}/vouchers/redeem`, { code: spent.code, note: 'Dinner for two, table 3' });
  const partly = await issue(5000, 'James Okafor', 'Happy birthday from the team');
  await api.post(`${base}/vouchers/redeem`, { code: partly.code, amount_pence: 1850, note: 'Lunch; £31.50 left for next time' });
  await issue(10000, 'Sophie Turner', 'Congratulations on the new job');

  // Refunded: sold at the till and refunded, only where the simulated card form can pay for it.
  const config = await api.get<{ publishable_key: string | null }>(`/api/public/venues/${venue.id}/voucher-config`);
  if (config.publishable_key !== SIMULATED_KEY) return;
  const intent = await api.post<{ intent_id: string }>(`${base}/voucher-intent`, { amount_pence: 5000 });
  await api.post(`/api/public/simulated-payments/${intent.intent_id}/confirm`, { payment_method: 'pm_card_visa' });
  const sold = await api.post<{ id: string }>(`${base}/vouchers`, {
    amount_pence: 5000,
    mode: 'paid',
    payment_intent_id: intent.intent_id,
    recipient_name: 'Mohammed Rahman',
  });
  await api.post(`${base}/vouchers/${sold.id}/refund`);
}

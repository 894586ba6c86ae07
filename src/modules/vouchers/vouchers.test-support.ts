/** Shared set-up of the vouchers module's tests: settings on, vouchers issued and paid for through the API. */
import { expect } from 'vitest';
import type { TestApp, VenueApi } from '../../../test/helpers/app.js';
import { confirm } from '../payments/payments.test-helpers.js';

/** Turns gift vouchers on (with `fields` on top). */
export async function enableVouchers(api: VenueApi, fields: Record<string, unknown> = {}) {
  const res = await api.put('/voucher-settings', { enabled: true, ...fields });
  expect(res.statusCode, res.body).toBe(200);
}

/** Issues a comp voucher; answers the create's body. */
export async function issueComp(api: VenueApi, body: Record<string, unknown> = {}) {
  const res = await api.post('/vouchers', { amount_pence: 5000, mode: 'comp', ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { success: true; id: string; code: string; display_code: string; expires_at: string; emailed: boolean };
}

/** A voucher-intent of `amount` paid with the simulated test card; answers its id. */
export async function paidIntent(t: TestApp, api: VenueApi, amount = 5000): Promise<string> {
  const res = await api.post('/voucher-intent', { amount_pence: amount });
  expect(res.statusCode, res.body).toBe(200);
  const intentId = res.json().intent_id as string;
  expect((await confirm(t, intentId, 'pm_card_visa')).statusCode).toBe(200);
  return intentId;
}

/** Links two venues of the operator as sisters. */
export async function linkSisters(t: TestApp, headers: Record<string, string>, venueId: string, sisterId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/my-venues/${venueId}/sisters`,
    headers,
    payload: { sister_venue_id: sisterId },
  });
  expect(res.statusCode, res.body).toBe(200);
}

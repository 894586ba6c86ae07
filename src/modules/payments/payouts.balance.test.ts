import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp, type TestOperator } from '../../../test/helpers/app.js';
import { confirm, onboard } from './payments.test-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const BALANCE = '/api/my-operator/payout/balance';
const balance = (who: { headers: Record<string, string> }) => t.app.inject({ url: BALANCE, headers: who.headers });

async function paid(op: TestOperator, venueId: string, amountPence: number) {
  const intent = await t.ctx.payments.createIntent({
    operatorId: op.operatorId,
    venueId,
    amountPence,
    metadata: { kind: 'booking_deposit', booking_id: `bkg_${amountPence}` },
  });
  expect((await confirm(t, intent.id, 'pm_card_visa')).statusCode).toBe(200);
  return intent;
}

describe('GET /api/my-operator/payout/balance', () => {
  it('is zero for a new account', async () => {
    const op = await createOperator(t);
    const res = await balance(op);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toEqual({ owed_pence: 0, in_transfer_pence: 0, transferred_pence: 0 });
  });

  it('shows payments taken before onboarding as owed (less fee and refunds), then as transferred', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const intent = await paid(op, venueId, 10_000);
    expect((await balance(op)).json()).toEqual({ owed_pence: 9_500, in_transfer_pence: 0, transferred_pence: 0 });

    await t.ctx.payments.refund(intent.id, { amountPence: 2_000 });
    expect((await balance(op)).json()).toEqual({ owed_pence: 7_600, in_transfer_pence: 0, transferred_pence: 0 });

    await onboard(t, op, 'verified');
    expect((await balance(op)).json()).toEqual({ owed_pence: 0, in_transfer_pence: 0, transferred_pence: 7_600 });

    // After onboarding, payments settle to the connected account directly: nothing more is owed.
    await paid(op, venueId, 4_000);
    expect((await balance(op)).json()).toEqual({ owed_pence: 0, in_transfer_pence: 0, transferred_pence: 7_600 });
  });

  it('counts a transfer that has not been confirmed as in transfer, not owed', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    await paid(op, venueId, 2_000);
    const at = t.clock.now().toISOString();
    await t.db.kysely
      .insertInto('payment_ledger')
      .values({
        id: `led_pending_${op.operatorId}`,
        operator_id: op.operatorId,
        venue_id: null,
        record_id: null,
        type: 'transfer',
        mode: 'platform',
        amount_pence: -1_900,
        entry_key: `transfer:pending-${op.operatorId}`,
        provider_ref: null,
        status: 'pending',
        note: null,
        created_at: at,
      })
      .execute();
    expect((await balance(op)).json()).toEqual({ owed_pence: 0, in_transfer_pence: 1_900, transferred_pence: 0 });
  });

  it('is per account and needs payouts or account settings read', async () => {
    const op = await createOperator(t);
    await paid(op, await insertVenue(t, op.operatorId), 1_000);
    const other = await createOperator(t);
    expect((await balance(other)).json()).toEqual({ owed_pence: 0, in_transfer_pence: 0, transferred_pence: 0 });

    expect((await t.app.inject({ url: BALANCE })).statusCode).toBe(401);
    expect((await balance(await createStaff(t, op, { payouts: 'read' }))).json().owed_pence).toBe(950);
    expect((await balance(await createStaff(t, op, { 'operators.settings': 'read' }))).statusCode).toBe(200);
    expect((await balance(await createStaff(t, op, { bookings: 'write' }))).statusCode).toBe(403);
  });
});

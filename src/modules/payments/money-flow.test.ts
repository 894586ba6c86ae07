import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp, type TestOperator } from '../../../test/helpers/app.js';
import { owedPence } from './ledger.js';
import { revenuePence } from './payments.reports.js';
import { confirm, onboard } from './payments.test-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const payments = () => t.ctx.payments;
const owed = (operatorId: string) => owedPence(t.db.kysely, operatorId);
const ledger = (operatorId: string) =>
  t.db.kysely
    .selectFrom('payment_ledger')
    .select(['type', 'mode', 'amount_pence', 'status', 'venue_id'])
    .where('operator_id', '=', operatorId)
    .orderBy('created_at')
    .orderBy('type')
    .execute();
const transfersTo = (accountId: string) => t.db.kysely.selectFrom('sim_transfers').select(['amount', 'destination']).where('destination', '=', accountId).execute();

async function paidIntent(op: TestOperator, venueId: string, amountPence: number, capture: 'automatic' | 'manual' = 'automatic') {
  const intent = await payments().createIntent({ operatorId: op.operatorId, venueId, amountPence, capture, metadata: { kind: 'booking_deposit', booking_id: `bkg_${amountPence}` } });
  expect((await confirm(t, intent.id, 'pm_card_visa')).statusCode).toBe(200);
  return intent;
}

describe('before and after onboarding (CONTRACT §4)', () => {
  it('charges on the platform account are owed, then transferred less the fee once the account is enabled', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);

    const intent = await payments().createIntent({ operatorId: op.operatorId, venueId, amountPence: 10_000, metadata: { kind: 'booking_deposit', booking_id: 'bkg_1' } });
    expect(intent.destination).toBeNull();
    expect(intent.application_fee_amount).toBeNull();
    expect(intent.metadata).toMatchObject({ kind: 'booking_deposit', booking_id: 'bkg_1', operator_id: op.operatorId });
    expect(await ledger(op.operatorId)).toEqual([]);

    await confirm(t, intent.id, 'pm_card_visa');
    expect(await ledger(op.operatorId)).toEqual([
      { type: 'charge', mode: 'platform', amount_pence: 10_000, status: 'completed', venue_id: venueId },
      { type: 'fee', mode: 'platform', amount_pence: -500, status: 'completed', venue_id: venueId },
    ]);
    expect(await owed(op.operatorId)).toBe(9_500);
    expect(await revenuePence(t.db, { operatorId: op.operatorId })).toBe(10_000);

    // Re-reading the intent records nothing twice.
    await payments().retrieveIntent(intent.id);
    expect(await ledger(op.operatorId)).toHaveLength(2);

    // A refund on a platform charge: the guest gets 2000 back, the fee share of it (100) is returned.
    await payments().refund(intent.id, { amountPence: 2_000 });
    expect(await owed(op.operatorId)).toBe(9_500 - 2_000 + 100);
    expect(await revenuePence(t.db, { operatorId: op.operatorId })).toBe(8_000);

    // A checkout session paid before onboarding is booked through its webhook event.
    const session = await payments().createCheckoutSession({
      operatorId: op.operatorId,
      venueId,
      amountPence: 3_000,
      name: 'Deposit',
      metadata: { kind: 'voucher_purchase', intent_id: 'vin_1' },
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
    });
    const pay = await t.app.inject({
      method: 'POST',
      url: new URL(session.url!).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'payment_method=pm_card_visa',
    });
    expect(pay.statusCode).toBe(303);
    expect(await owed(op.operatorId)).toBe(7_600 + 2_850);

    const { accountId } = await onboard(t, op.headers, 'verified');
    expect(await transfersTo(accountId)).toEqual([{ amount: 10_450, destination: accountId }]);
    expect(await owed(op.operatorId)).toBe(0);
    const transfer = await t.db.kysely.selectFrom('payment_ledger').selectAll().where('operator_id', '=', op.operatorId).where('type', '=', 'transfer').executeTakeFirstOrThrow();
    expect(transfer).toMatchObject({ amount_pence: -10_450, status: 'completed', mode: 'platform' });
    expect(transfer.provider_ref).toMatch(/^tr_/);

    // Status reads settle again only if something is owed.
    await t.app.inject({ url: '/api/my-operator/payout/status', headers: op.headers });
    expect(await transfersTo(accountId)).toHaveLength(1);
    expect(await revenuePence(t.db, { operatorId: op.operatorId })).toBe(11_000);
  });

  it('after onboarding, payments are destination charges with the platform fee', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op.headers, 'verified');

    const intent = await paidIntent(op, venueId, 8_000);
    const read = await payments().retrieveIntent(intent.id);
    expect(read).toMatchObject({ destination: accountId, application_fee_amount: 400, status: 'succeeded' });
    expect(await ledger(op.operatorId)).toEqual([
      { type: 'charge', mode: 'destination', amount_pence: 8_000, status: 'completed', venue_id: venueId },
      { type: 'fee', mode: 'destination', amount_pence: -400, status: 'completed', venue_id: venueId },
    ]);
    expect(await owed(op.operatorId)).toBe(0);

    // Refunds of destination charges reverse the transfer and give back the fee share.
    const refund = await payments().refund(intent.id, { amountPence: 4_000 });
    const simRefund = await t.db.kysely.selectFrom('sim_refunds').selectAll().where('id', '=', refund.id).executeTakeFirstOrThrow();
    expect(simRefund).toMatchObject({ amount: 4_000, reverse_transfer: 1, refund_application_fee: 1 });
    const rows = await ledger(op.operatorId);
    expect(rows.filter((r) => r.type === 'refund')).toEqual([{ type: 'refund', mode: 'destination', amount_pence: -4_000, status: 'completed', venue_id: venueId }]);
    expect(rows.filter((r) => r.type === 'fee_refund').map((r) => r.amount_pence)).toEqual([200]);
    expect(await revenuePence(t.db, { operatorId: op.operatorId })).toBe(4_000);
    expect(await transfersTo(accountId)).toEqual([]);
  });

  it('a partial capture of a destination hold takes the fee on what was captured', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    await onboard(t, op.headers, 'verified');
    const hold = await paidIntent(op, venueId, 6_000, 'manual');
    expect(await ledger(op.operatorId)).toEqual([]);
    const captured = await payments().captureIntent(hold.id, { amountPence: 3_000 });
    expect(captured).toMatchObject({ amount_received: 3_000, application_fee_amount: 150 });
    expect((await ledger(op.operatorId)).map((r) => [r.type, r.amount_pence])).toEqual([
      ['charge', 3_000],
      ['fee', -150],
    ]);
  });

  it('a platform charge that lands after the account is enabled is transferred at once', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const early = await payments().createIntent({ operatorId: op.operatorId, venueId, amountPence: 2_000, metadata: { kind: 'booking_deposit', booking_id: 'bkg_early' } });
    const { accountId } = await onboard(t, op.headers, 'verified');
    expect(await transfersTo(accountId)).toEqual([]);
    await confirm(t, early.id, 'pm_card_visa');
    expect(await transfersTo(accountId)).toEqual([{ amount: 1_900, destination: accountId }]);
    expect(await owed(op.operatorId)).toBe(0);
  });

  it('while verification is pending, payments stay on the platform account', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op.headers, 'pending');
    const intent = await paidIntent(op, venueId, 1_000);
    expect(intent.destination).toBeNull();
    expect(await owed(op.operatorId)).toBe(950);
    expect(await transfersTo(accountId)).toEqual([]);
  });

  it('concurrent settles transfer the owed money once', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op.headers, 'pending');
    await paidIntent(op, venueId, 4_000);
    await paidIntent(op, venueId, 2_000);
    // The provider enables the account; several status reads race to settle.
    await t.db.kysely.updateTable('sim_accounts').set({ charges_enabled: 1, payouts_enabled: 1 }).where('id', '=', accountId).execute();
    const reads = await Promise.all(Array.from({ length: 6 }, () => t.app.inject({ url: '/api/my-operator/payout/status', headers: op.headers })));
    expect(reads.map((r) => r.json().status)).toEqual(Array(6).fill('enabled'));
    expect(await transfersTo(accountId)).toEqual([{ amount: 5_700, destination: accountId }]);
    expect(await owed(op.operatorId)).toBe(0);
  });

  it('a failed transfer is not counted and the next settle retries it', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op.headers, 'pending');
    await paidIntent(op, venueId, 3_000);
    // Our cache says enabled but the provider still refuses transfers to the account.
    await t.db.kysely.updateTable('payment_accounts').set({ status: 'enabled' }).where('account_id', '=', accountId).execute();
    expect(await payments().payouts.settle(op.operatorId)).toBeNull();
    const failed = await t.db.kysely.selectFrom('payment_ledger').select('status').where('operator_id', '=', op.operatorId).where('type', '=', 'transfer').execute();
    expect(failed).toEqual([{ status: 'failed' }]);
    expect(await owed(op.operatorId)).toBe(2_850);

    await t.db.kysely.updateTable('sim_accounts').set({ charges_enabled: 1, payouts_enabled: 1 }).where('id', '=', accountId).execute();
    const transfer = await payments().payouts.settle(op.operatorId);
    expect(transfer).toMatchObject({ amount: 2_850, destination: accountId });
    expect(await owed(op.operatorId)).toBe(0);
  });
});

describe('revenue figures', () => {
  it('are per operator, per venue and per window', async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const v1 = await insertVenue(t, op.operatorId);
    const v2 = await insertVenue(t, op.operatorId);
    const start = t.clock.now().toISOString();
    await paidIntent(op, v1, 1_000);
    t.clock.advance(3600_000);
    const middle = t.clock.now().toISOString();
    await paidIntent(op, v2, 2_500);
    t.clock.advance(3600_000);
    const end = t.clock.now().toISOString();

    expect(await revenuePence(t.db, { operatorId: op.operatorId })).toBe(3_500);
    expect(await revenuePence(t.db, { operatorId: op.operatorId, venueId: v1 })).toBe(1_000);
    expect(await revenuePence(t.db, { operatorId: op.operatorId, venueId: v2 })).toBe(2_500);
    expect(await revenuePence(t.db, { operatorId: op.operatorId, from: start, to: middle })).toBe(1_000);
    expect(await revenuePence(t.db, { operatorId: op.operatorId, from: middle, to: end })).toBe(2_500);
    expect(await revenuePence(t.db, { operatorId: op.operatorId, from: end })).toBe(0);
    expect(await revenuePence(t.db, { operatorId: other.operatorId })).toBe(0);
  });

  it("the platform's own sales (no operator) write no operator ledger", async () => {
    const before = await t.db.kysely.selectFrom('payment_ledger').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const intent = await payments().createIntent({ amountPence: 999, metadata: { kind: 'keys_topup' } });
    await confirm(t, intent.id, 'pm_card_visa');
    const after = await t.db.kysely.selectFrom('payment_ledger').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

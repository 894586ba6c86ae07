import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp, type TestOperator } from '../../../test/helpers/app.js';
import { owedPence } from './ledger.js';
import { revenuePence } from './payments.reports.js';
import { PaymentProviderError } from './provider.js';
import { confirm, deliver, FORM, onboard, sessionEvent } from './payments.test-helpers.js';

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
const transfersTo = (accountId: string) =>
  t.db.kysely.selectFrom('sim_transfers').select(['amount', 'destination']).where('destination', '=', accountId).execute();

async function paidIntent(op: TestOperator, venueId: string, amountPence: number, capture: 'automatic' | 'manual' = 'automatic') {
  const intent = await payments().createIntent({
    operatorId: op.operatorId,
    venueId,
    amountPence,
    capture,
    metadata: { kind: 'booking_deposit', booking_id: `bkg_${amountPence}` },
  });
  expect((await confirm(t, intent.id, 'pm_card_visa')).statusCode).toBe(200);
  return intent;
}

describe('before and after onboarding (decisions: Payments before payout onboarding)', () => {
  it('charges on the platform account are owed, then transferred less the fee once the account is enabled', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);

    const intent = await payments().createIntent({
      operatorId: op.operatorId,
      venueId,
      amountPence: 10_000,
      metadata: { kind: 'booking_deposit', booking_id: 'bkg_1' },
    });
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

    const { accountId } = await onboard(t, op, 'verified');
    expect(await transfersTo(accountId)).toEqual([{ amount: 10_450, destination: accountId }]);
    expect(await owed(op.operatorId)).toBe(0);
    const transfer = await t.db.kysely
      .selectFrom('payment_ledger')
      .selectAll()
      .where('operator_id', '=', op.operatorId)
      .where('type', '=', 'transfer')
      .executeTakeFirstOrThrow();
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
    const { accountId } = await onboard(t, op, 'verified');

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
    expect(rows.filter((r) => r.type === 'refund')).toEqual([
      { type: 'refund', mode: 'destination', amount_pence: -4_000, status: 'completed', venue_id: venueId },
    ]);
    expect(rows.filter((r) => r.type === 'fee_refund').map((r) => r.amount_pence)).toEqual([200]);
    expect(await revenuePence(t.db, { operatorId: op.operatorId })).toBe(4_000);
    expect(await transfersTo(accountId)).toEqual([]);
  });

  it('a partial capture of a destination hold takes the fee on what was captured', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    await onboard(t, op, 'verified');
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
    const early = await payments().createIntent({
      operatorId: op.operatorId,
      venueId,
      amountPence: 2_000,
      metadata: { kind: 'booking_deposit', booking_id: 'bkg_early' },
    });
    const { accountId } = await onboard(t, op, 'verified');
    expect(await transfersTo(accountId)).toEqual([]);
    await confirm(t, early.id, 'pm_card_visa');
    expect(await transfersTo(accountId)).toEqual([{ amount: 1_900, destination: accountId }]);
    expect(await owed(op.operatorId)).toBe(0);
  });

  it('while verification is pending, payments stay on the platform account', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op, 'pending');
    const intent = await paidIntent(op, venueId, 1_000);
    expect(intent.destination).toBeNull();
    expect(await owed(op.operatorId)).toBe(950);
    expect(await transfersTo(accountId)).toEqual([]);
  });

  it('concurrent settles transfer the owed money once', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op, 'pending');
    await paidIntent(op, venueId, 4_000);
    await paidIntent(op, venueId, 2_000);
    // The provider enables the account; several status reads race to settle.
    await t.db.kysely.updateTable('sim_accounts').set({ charges_enabled: 1, payouts_enabled: 1 }).where('id', '=', accountId).execute();
    const reads = await Promise.all(
      Array.from({ length: 6 }, () => t.app.inject({ url: '/api/my-operator/payout/status', headers: op.headers })),
    );
    expect(reads.map((r) => r.json().status)).toEqual(Array(6).fill('enabled'));
    expect(await transfersTo(accountId)).toEqual([{ amount: 5_700, destination: accountId }]);
    expect(await owed(op.operatorId)).toBe(0);
  });

  it('a failed transfer is not counted and the next settle retries it', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op, 'pending');
    await paidIntent(op, venueId, 3_000);
    // Our cache says enabled but the provider still refuses transfers to the account.
    await t.db.kysely.updateTable('payment_accounts').set({ status: 'enabled' }).where('account_id', '=', accountId).execute();
    expect(await payments().payouts.settle(op.operatorId)).toBeNull();
    const failed = await t.db.kysely
      .selectFrom('payment_ledger')
      .select('status')
      .where('operator_id', '=', op.operatorId)
      .where('type', '=', 'transfer')
      .execute();
    expect(failed).toEqual([{ status: 'failed' }]);
    expect(await owed(op.operatorId)).toBe(2_850);

    await t.db.kysely.updateTable('sim_accounts').set({ charges_enabled: 1, payouts_enabled: 1 }).where('id', '=', accountId).execute();
    const transfer = await payments().payouts.settle(op.operatorId);
    expect(transfer).toMatchObject({ amount: 2_850, destination: accountId });
    expect(await owed(op.operatorId)).toBe(0);
  });
});

describe('transfers when the provider does not answer', () => {
  it('a transfer whose outcome is unknown stays claimed and is retried under the same key, never made twice', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const { accountId } = await onboard(t, op, 'pending');
    await paidIntent(op, venueId, 3_000);
    const provider = payments().provider!;
    const realTransfer = provider.createTransfer.bind(provider);
    const keys: (string | undefined)[] = [];
    let loseAnswer = true;
    // The provider makes the transfer but its first answer is lost (a timeout): the outcome is unknown.
    provider.createTransfer = async (input, options) => {
      keys.push(options?.idempotencyKey);
      const transfer = await realTransfer(input, options);
      if (loseAnswer) {
        loseAnswer = false;
        throw new PaymentProviderError('unavailable', 'Stripe request failed: socket hang up');
      }
      return transfer;
    };
    try {
      await t.db.kysely.updateTable('sim_accounts').set({ charges_enabled: 1, payouts_enabled: 1 }).where('id', '=', accountId).execute();
      await t.app.inject({ url: '/api/my-operator/payout/status', headers: op.headers });
      expect(await transfersTo(accountId)).toEqual([{ amount: 2_850, destination: accountId }]);
      const claim = await t.db.kysely
        .selectFrom('payment_ledger')
        .select(['status', 'amount_pence'])
        .where('operator_id', '=', op.operatorId)
        .where('type', '=', 'transfer')
        .execute();
      expect(claim).toEqual([{ status: 'pending', amount_pence: -2_850 }]);
      // Nothing is owed while the claim is open, so further settles transfer nothing more.
      expect(await owed(op.operatorId)).toBe(0);
      expect(await payments().payouts.settle(op.operatorId)).toBeNull();
      expect(keys).toHaveLength(1);

      // Later the stale claim is retried with its own key: the provider answers with the transfer it made.
      t.clock.advance(6 * 60_000);
      await payments().payouts.settle(op.operatorId);
    } finally {
      provider.createTransfer = realTransfer;
    }
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await transfersTo(accountId)).toEqual([{ amount: 2_850, destination: accountId }]);
    const settled = await t.db.kysely
      .selectFrom('payment_ledger')
      .select(['status', 'provider_ref'])
      .where('operator_id', '=', op.operatorId)
      .where('type', '=', 'transfer')
      .execute();
    expect(settled).toEqual([{ status: 'completed', provider_ref: expect.stringMatching(/^tr_/) }]);
    expect(await owed(op.operatorId)).toBe(0);
  });
});

describe('tenant scope', () => {
  it("an operator's scope reaches its own payments only: another's intent or session is not found and untouched", async () => {
    const a = await createOperator(t);
    const b = await createOperator(t);
    const venueA = await insertVenue(t, a.operatorId);
    const otherVenueA = await insertVenue(t, a.operatorId);
    const hold = await paidIntent(a, venueA, 5_000, 'manual');
    const paid = await paidIntent(a, venueA, 2_000);
    const session = await payments().createCheckoutSession({
      operatorId: a.operatorId,
      venueId: venueA,
      amountPence: 1_500,
      name: 'Deposit',
      metadata: { kind: 'test_scope' },
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
    });
    const platformOwn = await payments().createIntent({ amountPence: 900, metadata: { kind: 'keys_topup' } });

    const scopeB = { operatorId: b.operatorId };
    const wrongVenue = { operatorId: a.operatorId, venueId: otherVenueA };
    for (const scope of [scopeB, wrongVenue]) {
      await expect(payments().retrieveIntent(hold.id, scope)).rejects.toMatchObject({ status: 404 });
      await expect(payments().captureIntent(hold.id, { scope })).rejects.toMatchObject({ status: 404 });
      await expect(payments().cancelIntent(hold.id, { scope })).rejects.toMatchObject({ status: 404 });
      await expect(payments().refund(paid.id, { scope })).rejects.toMatchObject({ status: 404 });
      await expect(payments().retrieveCheckoutSession(session.id, scope)).rejects.toMatchObject({ status: 404 });
      await expect(payments().expireCheckoutSession(session.id, scope)).rejects.toMatchObject({ status: 404 });
    }
    // A payment of no operator is no operator's either.
    await expect(payments().retrieveIntent(platformOwn.id, scopeB)).rejects.toMatchObject({ status: 404 });
    expect((await payments().retrieveIntent(hold.id)).status).toBe('requires_capture');
    expect((await payments().retrieveCheckoutSession(session.id)).status).toBe('open');
    expect(await t.db.kysely.selectFrom('sim_refunds').select('id').where('payment_intent_id', '=', paid.id).execute()).toEqual([]);

    const scopeA = { operatorId: a.operatorId, venueId: venueA };
    expect((await payments().retrieveIntent(hold.id, scopeA)).status).toBe('requires_capture');
    expect((await payments().captureIntent(hold.id, { scope: scopeA })).status).toBe('succeeded');
    expect((await payments().refund(paid.id, { amountPence: 500, scope: { operatorId: a.operatorId } })).amount).toBe(500);
    expect((await payments().expireCheckoutSession(session.id, scopeA)).status).toBe('expired');
  });
});

describe('checkout bookkeeping', () => {
  it('an expiry arriving after the payment (out of order) does not undo it', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const session = await payments().createCheckoutSession({
      operatorId: op.operatorId,
      venueId,
      amountPence: 2_000,
      name: 'Deposit',
      metadata: { kind: 'test_out_of_order' },
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
    });
    const pay = await t.app.inject({
      method: 'POST',
      url: new URL(session.url!).pathname,
      headers: FORM,
      payload: 'payment_method=pm_card_visa',
    });
    expect(pay.statusCode).toBe(303);
    const record = () =>
      t.db.kysely.selectFrom('payment_records').select('status').where('checkout_session_id', '=', session.id).executeTakeFirstOrThrow();
    expect((await record()).status).toBe('complete');
    const late = sessionEvent('checkout.session.expired', { id: session.id, amount_total: 2_000, metadata: { ...session.metadata } });
    expect((await deliver(t, late)).statusCode).toBe(200);
    expect((await record()).status).toBe('complete');
    expect(await revenuePence(t.db, { operatorId: op.operatorId })).toBe(2_000);
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
    const before = await t.db.kysely
      .selectFrom('payment_ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const intent = await payments().createIntent({ amountPence: 999, metadata: { kind: 'keys_topup' } });
    await confirm(t, intent.id, 'pm_card_visa');
    const after = await t.db.kysely
      .selectFrom('payment_ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

/**
 * Test set-up shared by the deposit tests: a live venue whose Friday dinner rule takes a £10-a-cover
 * deposit (four 4-seat tables unless told), and public deposit bookings on it awaiting payment.
 */
import { expect } from 'vitest';
import { createOperator, insertVenue, insertVenueRow, type TestApp } from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';

export async function depositVenue(
  t: TestApp,
  options: { tables?: number } = {},
): Promise<{ operatorId: string; venueId: string; ruleId: string }> {
  const op = await createOperator(t);
  const venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  const policy = await insertVenueRow(
    t,
    'payment_policies',
    venueId,
    { name: 'Deposit', deposit_type: 'deposit', refund_type: 'full' },
    'pp',
  );
  const pricelist = await insertVenueRow(t, 'pricelists', venueId, { name: 'Prices', default_price_pence: 1000 }, 'pl');
  const ruleId = await insertAccessRule(t, venueId, {
    name: 'Deposit dinner',
    rule_type: 'table',
    days_of_week: '["fri"]',
    payment_policy_id: policy,
    pricelist_id: pricelist,
  });
  for (let n = 1; n <= (options.tables ?? 4); n++) {
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: String(n), capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
  }
  return { operatorId: op.operatorId, venueId, ruleId };
}

/** Books £20 deposit bookings (2 covers × £10) awaiting payment at the venue; each answers its id and its intent's. */
export function depositBooker(t: TestApp, venue: { venueId: string; ruleId: string }) {
  let guests = 0;
  return async (date = '2026-07-10') => {
    const n = ++guests;
    // Each guest from an address of their own: unpaid holds are capped per client address (3 at a venue).
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${venue.venueId}/book`,
      remoteAddress: `10.20.0.${n}`,
      payload: {
        access_rule_id: venue.ruleId,
        rule_type: 'table',
        date,
        time: '18:00',
        party_size: 2,
        guest_name: `Payer ${n}`,
        guest_email: `payer${n}@example.test`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ requires_payment: true, amount_pence: 2000 });
    return { bookingId: body.booking_id as string, intentId: body.payment_intent_id as string };
  };
}

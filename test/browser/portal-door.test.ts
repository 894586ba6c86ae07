/**
 * The door and the money on the floor: a guest checked in from a picture of their booking's QR code; a guest
 * turned away with a refund; a card hold captured in part from the booking's drawer. The API confirms each.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { insertBooking } from '../../src/modules/bookings/core/bookings.test-support.js';
import {
  booking,
  chromiumPresent,
  expectAccessible,
  openSignedIn,
  screenshot,
  staffBooking,
  startPortal,
  tableId,
  type PortalHarness,
} from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

/** A simulated payment of the venue, confirmed with the test card: a hold (`manual`) or a paid deposit. */
async function paidIntent(amountPence: number, capture: 'manual' | 'automatic') {
  const intent = await h.t.ctx.payments.createIntent({
    operatorId: h.operatorId,
    venueId: h.venueId,
    amountPence,
    capture,
    metadata: { kind: 'test' },
  });
  await h.t.ctx.payments.confirmSimulated(intent.id, 'pm_card_visa');
  return intent.id;
}

/** A booking of today at 14:00 (13:00 UTC in London's summer) with money taken. */
async function bookingWithMoney(name: string, table: string, kind: 'hold' | 'deposit') {
  const intentId = await paidIntent(2000, kind === 'hold' ? 'manual' : 'automatic');
  return insertBooking(h.t, h.operatorId, h.venueId, {
    guest_name: name,
    booking_date: h.today,
    start_time: '14:00',
    starts_at: '2026-06-15T13:00:00.000Z',
    ends_at: '2026-06-15T14:30:00.000Z',
    tableIds: [await tableId(h, table)],
    deposit_type: kind,
    deposit_pence: 2000,
    payment_intent_id: intentId,
    payment_status: kind === 'hold' ? 'held' : 'paid',
  });
}

describe.skipIf(!chromiumPresent)('the door and holds', () => {
  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, `/door?venue=${h.venueId}`, 'Door'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('checks a guest in from a picture of their booking’s QR code', async () => {
    const id = await staffBooking(h, {
      time: '13:30',
      guest_name: 'Quinn Qr',
      guest_email: 'quinn@example.test',
      table_ids: [await tableId(h, '21')],
    });
    const qr = (await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/booking/${id}/qr` })).json() as { qr_code: string };
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'qr-')), 'booking.png');
    fs.writeFileSync(file, Buffer.from(qr.qr_code.split(',')[1], 'base64'));
    await expectAccessible(page);
    await screenshot(page, 'door');
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('heading', { name: 'Scanned booking' }).waitFor();
    await page.getByRole('button', { name: 'Check in' }).click();
    await page.getByRole('status').filter({ hasText: 'Checked in: Quinn Qr, 2 covers' }).waitFor();
    expect((await booking(h, id)).status).toBe('checked_in');
    await expectAccessible(page);
    await screenshot(page, 'door-checked-in');
  });

  it('turns a guest away at the door with a reason and a refund', async () => {
    const id = await bookingWithMoney('Rita Refund', '22', 'deposit');
    await page.getByLabel('Booking reference').fill(id);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('heading', { name: `Booking ${id}` }).waitFor();
    await page.getByLabel('Reason').fill('Dress code');
    expect(await page.getByRole('checkbox', { name: 'Refund what the guest paid' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Turn away' }).click();
    await page.getByRole('status').filter({ hasText: 'Turned away: Rita Refund (refunded)' }).waitFor();
    const after = await booking(h, id);
    expect(after.status).toBe('door_rejected');
    expect(after.refunded_pence).toBe(2000);
  });

  it('reads at 820 px', async () => {
    await page.setViewportSize({ width: 820, height: 900 });
    await screenshot(page, 'door');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('captures part of a card hold from the booking’s drawer', async () => {
    const id = await bookingWithMoney('Hilda Hold', '23', 'hold');
    await page.getByRole('link', { name: 'Floor' }).click();
    await page.getByRole('link', { name: 'List', exact: true }).click();
    await page.getByRole('button', { name: 'Hilda Hold' }).click();
    const drawer = page.getByRole('dialog', { name: 'Booking: Hilda Hold' });
    await drawer.getByRole('button', { name: 'Capture hold…' }).click();
    const ask = page.getByRole('dialog', { name: /^Capture Hilda Hold/ });
    await ask.getByLabel('Amount to capture (£)').fill('15.00');
    await expectAccessible(page);
    await screenshot(page, 'capture');
    await ask.getByRole('button', { name: 'Capture' }).click();
    await expect.poll(async () => (await booking(h, id)).payment_status).toBe('captured');
    expect((await booking(h, id)).captured_pence).toBe(1500);
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
  });
});

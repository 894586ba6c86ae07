/**
 * The gift-vouchers widget as a guest uses it on a phone, embedded through the loader on the venue's
 * site: a custom amount outside the bounds is refused at its field, then two vouchers of a preset
 * amount are bought with the simulated provider's test card and their codes shown; the vouchers exist
 * for the venue afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  button,
  chromiumPresent,
  expectAccessible,
  expectFitsPhone,
  openEmbedded,
  screenshot,
  startHarness,
  type Harness,
  bookedOn,
} from './widget-harness.js';

let h: Harness;

describe.skipIf(!chromiumPresent)('vouchers widget in chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('buys vouchers and shows their codes', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.vouchers);
    await frame.getByRole('heading', { name: 'Gift vouchers', level: 1 }).waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);

    // Out of bounds: the error is tied to its field and nothing is bought.
    await frame.getByLabel(/Another amount/).fill('5');
    await frame.getByLabel("Recipient's name").fill('Sam Friend');
    await frame.getByLabel("Recipient's email").fill('sam@example.com');
    await frame.getByLabel('Your name').fill('Alex Buyer');
    await frame.getByLabel('Your email').fill('alex@example.com');
    await button(frame, 'Continue to payment').click();
    const amount = frame.getByLabel(/Another amount/);
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await screenshot(page, 'vouchers-invalid');

    await amount.fill('');
    await frame.getByLabel('£50').check();
    await frame.getByLabel('How many').selectOption('2');
    await frame.getByLabel('Message (optional)').fill('Happy birthday!');
    await button(frame, 'Continue to payment').click();
    await frame.getByLabel(/succeeds/).check();
    await button(frame, 'Pay £100').click();
    await frame.getByRole('heading', { name: 'Thank you', level: 1 }).waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'vouchers-done');

    const shown = await frame.locator('.mw-codes li strong').allInnerTexts();
    expect(shown).toHaveLength(2);
    const list = (await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/vouchers?limit=200`, headers: h.staff })).json() as {
      data: { code: string; amount_pence: number; recipient_email: string | null; status: string }[];
    };
    const bought = list.data.filter((v) => v.recipient_email === 'sam@example.com');
    expect(bought).toHaveLength(2);
    expect(bought.every((v) => v.amount_pence === 5000 && v.status === 'active')).toBe(true);
    expect(shown.map((code) => code.replace(/[^A-Z0-9]/g, '')).sort()).toEqual(bought.map((v) => v.code.replace(/[^A-Z0-9]/g, '')).sort());
    const booked = await bookedOn(page);
    expect(booked.map((b) => b.kind)).toEqual(['voucher']);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

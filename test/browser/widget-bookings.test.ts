/**
 * The bookings widget as a guest uses it on a phone, embedded through the loader on the venue's own site
 * (another origin): a table booking without a deposit, and one with a deposit where the first card is
 * declined. Each asserts the booking through the API, the page's fit at 390 px and an axe scan, and
 * saves a screenshot under test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  button,
  chromiumPresent,
  expectAccessible,
  expectFitsPhone,
  openEmbedded,
  screenshot,
  pickDateByKeyboard,
  startHarness,
  watch,
  type Harness,
  bookedOn,
  staffBooking,
} from './widget-harness.js';

let h: Harness;

describe.skipIf(!chromiumPresent)('bookings widget in chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('books a table without a deposit', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings);
    await frame
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'bookings-times');

    // Tomorrow through the calendar dialog, by keyboard; lunch takes no deposit (dinner does, in the demo).
    await pickDateByKeyboard(page, frame, 1, async () => {
      await frame.getByRole('dialog', { name: 'June 2026' }).waitFor();
      await expectAccessible(page);
    });
    await frame.getByRole('status').filter({ hasText: 'times available on Tuesday 16 June 2026' }).waitFor();
    await button(frame, '12:30, Lunch tables, table for 2').click();
    await frame.getByLabel('Name').fill('Ada Guest');
    await frame.getByLabel('Email').fill('ada@example.com');
    await frame.getByLabel('Phone (optional)').fill('+44 7700 900123');
    await expectAccessible(page);
    await button(frame, 'Book').click();
    await frame.getByRole('heading', { name: 'Booking confirmed', level: 1 }).waitFor();
    await frame.getByRole('img', { name: /Entry QR code/ }).waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'bookings-confirmed');

    const booked = await bookedOn(page);
    expect(booked).toHaveLength(1);
    const saved = await staffBooking(h, booked[0].booking_id);
    expect(saved).toMatchObject({
      status: 'confirmed',
      guest_name: 'Ada Guest',
      guest_email: 'ada@example.com',
      guest_count: 2,
      booking_date: '2026-06-16',
      start_time: '12:30',
    });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('takes a deposit: a declined card keeps the booking and its entries, a good card confirms it; the manage link cancels it', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings);
    await frame.getByLabel('Guests').selectOption('6');
    // Two days ahead: the deposit policy lets guests cancel up to 24 hours before.
    await pickDateByKeyboard(page, frame, 2);
    await frame.getByRole('status').filter({ hasText: 'times available on Wednesday 17 June 2026' }).waitFor();
    await button(frame, /^20:00, .*table for 6$/)
      .first()
      .click();
    // The dinner rule offers the Celebration bundle.
    await frame.getByLabel('Celebration, £90 each').selectOption('1');
    await frame.getByLabel('Name').fill('Grace Party');
    await frame.getByLabel('Email').fill('grace@example.com');
    await button(frame, 'Book').click();
    await frame.getByRole('heading', { name: 'Pay the deposit', level: 1 }).waitFor();
    await expectAccessible(page);

    await frame.getByLabel(/declined/).check();
    await button(frame, /^Pay/).click();
    await frame
      .getByRole('alert')
      .filter({ hasText: /declined/i })
      .waitFor();
    await screenshot(page, 'bookings-declined');
    expect(page.frames().length).toBeGreaterThan(1);

    await frame.getByLabel(/succeeds/).check();
    await button(frame, /^Pay/).click();
    await frame.getByRole('heading', { name: 'Booking confirmed', level: 1 }).waitFor();
    await screenshot(page, 'bookings-deposit-confirmed');
    const booked = await bookedOn(page);
    const saved = await staffBooking(h, booked[0].booking_id);
    expect(saved).toMatchObject({ status: 'confirmed', guest_email: 'grace@example.com', guest_count: 6 });
    expect(saved.payment_status).toBe('paid');
    expect(saved.bundle_selections).toEqual([{ bundle_id: expect.stringMatching(/^bnd_/), quantity: 1 }]);

    // The guest cancels through the manage link, which says first what cancelling refunds.
    const [manage] = await Promise.all([
      page.waitForEvent('popup'),
      frame.getByRole('link', { name: /View or cancel this booking/ }).click(),
    ]);
    manage.setDefaultTimeout(10_000);
    const manageProblems = watch(manage);
    const token = new URL(manage.url()).searchParams.get('token')!;
    const view = (await h.t.app.inject({ url: `/api/public/bookings/manage?token=${encodeURIComponent(token)}` })).json() as {
      cancellation: { refund_pence: number };
    };
    await manage.getByRole('button', { name: 'Cancel booking' }).click();
    const refundText = view.cancellation.refund_pence > 0 ? `£${view.cancellation.refund_pence / 100}` : 'not refunded';
    await manage.getByRole('group').filter({ hasText: refundText }).waitFor();
    await screenshot(manage, 'manage-confirm');
    await manage.getByRole('button', { name: 'Yes, cancel my booking' }).click();
    await manage.getByRole('status').filter({ hasText: 'Your booking is cancelled' }).waitFor();
    await manage.getByText('cancelled', { exact: true }).waitFor();
    await screenshot(manage, 'manage-cancelled');
    const after = await staffBooking(h, booked[0].booking_id);
    expect(after.status).toBe('cancelled');
    expect(after.refunded_pence).toBe(view.cancellation.refund_pence);
    expect(manageProblems).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

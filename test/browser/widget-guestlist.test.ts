/**
 * The guest list through the bookings widget, as a guest with keys uses it on a phone: the list for a
 * Friday, the queue-skip option for two, sign-in inside the widget (the session lives in the page's
 * memory only), the keys balance, joining; the booking and the keys spent are checked through the API.
 * A new guest signs up in two steps: the form, then the 6-digit code mailed to the address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantKeys } from '../../src/modules/payments/index.js';
import { createGuest, TEST_PASSWORD, uniqueEmail, verificationCodeFor } from '../helpers/app.js';
import {
  button,
  chromiumPresent,
  expectAccessible,
  expectFitsPhone,
  openEmbedded,
  pickDateByKeyboard,
  screenshot,
  startHarness,
  type Harness,
  staffBooking,
  bookedOn,
} from './widget-harness.js';

let h: Harness;

describe.skipIf(!chromiumPresent)('guest list in the bookings widget in chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('signs a guest in, shows their keys and joins the list, spending keys', async () => {
    const guest = await createGuest(h.t, 'Nia Nightowl');
    await grantKeys(h.t.db, guest.userId, 50, h.t.clock.now());
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings);
    await frame.getByLabel('The guest list').check();
    await frame.getByRole('heading', { name: 'Join the guest list', level: 1 }).waitFor();
    // Friday 19 June (the demo's list runs at weekends), through the calendar by keyboard.
    await pickDateByKeyboard(page, frame, 4);
    await frame.getByRole('status').filter({ hasText: 'open on Friday 19 June 2026' }).waitFor();
    await frame.getByLabel(/^Queue skip/).check();
    await frame.getByLabel('People, you included').selectOption('2');
    await expectAccessible(page);

    await frame.getByLabel('Email').fill(guest.email);
    await frame.getByLabel('Password').fill(TEST_PASSWORD);
    await button(frame, 'Sign in').click();
    await frame.getByText('Your keys: 50').waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'guestlist-signed-in');

    await button(frame, 'Join the list').click();
    await frame.getByText(/Keys spent: \d+/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'guestlist-joined');

    const booked = await bookedOn(page);
    expect(booked.map((b) => b.kind)).toEqual(['guestlist']);
    const saved = await staffBooking(h, booked[0].booking_id);
    expect(saved).toMatchObject({ booking_date: '2026-06-19', guest_count: 2, guest_email: guest.email, guest_name: 'Nia Nightowl' });
    expect(['approved', 'pending']).toContain(saved.status);
    const balance = (await h.t.app.inject({ url: '/api/me/keys', headers: guest.headers })).json() as { balance: number };
    const spent = 50 - balance.balance;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(30);
    await frame.getByText(`Keys spent: ${spent}. Keys left: ${balance.balance}.`).waitFor();
    // The session was never written anywhere the page keeps.
    expect(await page.evaluate(() => JSON.stringify(sessionStorage) + JSON.stringify(localStorage) + document.cookie)).not.toContain(
      guest.token,
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('signs a new guest up in two steps: the account exists only once the mailed code is entered', async () => {
    const email = uniqueEmail('widget-signup');
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings);
    await frame.getByLabel('The guest list').check();
    await frame.getByRole('heading', { name: 'Join the guest list', level: 1 }).waitFor();
    await pickDateByKeyboard(page, frame, 4);
    await frame.getByRole('status').filter({ hasText: 'open on Friday 19 June 2026' }).waitFor();

    await button(frame, "I'm new here").click();
    await frame.getByLabel('Name').fill('Sol Signup');
    await frame.getByLabel('Email').fill(email);
    await frame.getByLabel('Password').fill('a long passphrase');
    await button(frame, 'Create account').click();
    await frame.getByLabel('Verification code').waitFor();
    await frame.getByText(`We emailed a 6-digit code to ${email}`).first().waitFor();
    const users = () => h.t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(await users()).toEqual([]);
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'guestlist-verify-code');

    // A wrong code is refused with the server's message; the mailed one signs the guest in.
    const code = await verificationCodeFor(h.t, email);
    await frame.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
    await button(frame, 'Verify and sign in').click();
    await frame.getByText('Invalid or expired verification code').waitFor();
    await frame.getByLabel('Verification code').fill(code);
    await button(frame, 'Verify and sign in').click();
    await frame.getByText('Your keys: 0').waitFor();
    expect(await users()).toHaveLength(1);
    await expectAccessible(page);
    expect(problems.filter((p) => !/\b400\b/.test(p))).toEqual([]);
    await page.context().close();
  });
});

/**
 * The events widget as a guest uses it on a phone, embedded through the loader on the venue's site:
 * what's on, an event's ticket types with what is left, two paid tickets bought with the simulated
 * provider's test card, and the confirmation with the door QR; the booking is checked through the API.
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
  staffBooking,
  bookedOn,
} from './widget-harness.js';

let h: Harness;

describe.skipIf(!chromiumPresent)('events widget in chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('buys tickets for an upcoming event', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.events);
    await frame.getByRole('heading', { name: "What's on", level: 1 }).waitFor();
    await frame.getByRole('heading', { name: 'Northern Soul All-Nighter' }).waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'events-list');

    await button(frame, /^Tickets for Northern Soul All-Nighter/).click();
    await frame.getByRole('heading', { name: 'Northern Soul All-Nighter', level: 1 }).waitFor();
    await frame.getByLabel(/^Standard entry/).check();
    await frame.getByLabel('How many').selectOption('2');
    await frame.getByLabel('Name').fill('Maya Dancer');
    await frame.getByLabel('Email').fill('maya@example.com');
    await expectAccessible(page);
    await button(frame, 'Continue: £24').click();
    await frame.getByLabel(/succeeds/).check();
    await button(frame, 'Pay £24').click();
    await frame.getByText(/Booked\. Your tickets are on their way/).waitFor();
    await frame.getByRole('img', { name: /Entry QR code/ }).waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'events-booked');

    const booked = await bookedOn(page);
    expect(booked.map((b) => b.kind)).toEqual(['event']);
    const saved = await staffBooking(h, booked[0].booking_id);
    expect(saved).toMatchObject({ status: 'confirmed', guest_email: 'maya@example.com', guest_count: 2, payment_status: 'paid' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('links a photo credit only when its URL is http(s) (security round 2)', async () => {
    // A credit stored before the API refused other schemes: the widget shows the name, not a link.
    const credit = {
      photographer: 'Mallory',
      photographer_url: 'javascript:alert(document.domain)',
      unsplash_url: 'https://unsplash.com/',
    };
    await h.t.db.kysely
      .updateTable('events')
      .set({ image_attribution: JSON.stringify(credit) })
      .where('venue_id', '=', h.venueId)
      .execute();
    const { page, frame } = await openEmbedded(h, h.publicIds.events);
    await frame
      .getByText(/Photo by Mallory/)
      .first()
      .waitFor();
    expect(await frame.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await frame.getByRole('link', { name: 'Mallory' }).count()).toBe(0);
    expect(await frame.getByRole('link', { name: 'Unsplash' }).count()).toBeGreaterThan(0);
    await page.context().close();
  });
});

/**
 * The waitlist from the bookings widget, as a guest on a phone through the loader on the venue's own
 * site: every table blocked for tomorrow, the widget shows no times and offers "Join the waitlist"; the
 * guest joins with a window and their details, and the entry is on the venue's online list (operator API).
 * Checks the page's fit at 390 px and axe, and saves a screenshot under test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from './widget-harness.js';

let h: Harness;

describe.skipIf(!chromiumPresent)('bookings widget: join the waitlist', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('offers the waitlist when nothing is free, and joins it', async () => {
    const venueUrl = `/api/my-venues/${h.venueId}`;
    const tables = (await h.t.app.inject({ url: `${venueUrl}/tables`, headers: h.staff })).json() as { data: { id: string }[] };
    const blocked = await h.t.app.inject({
      method: 'POST',
      url: `${venueUrl}/tables/block`,
      headers: h.staff,
      payload: {
        table_ids: tables.data.map((table) => table.id),
        from: '2026-06-16T00:00',
        to: '2026-06-17T06:00',
        reason: 'Private hire',
      },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);

    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings);
    await frame
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await pickDateByKeyboard(page, frame, 1);
    await frame.getByText('No tables are free on Tuesday 16 June 2026.').waitFor();
    await button(frame, 'Join the waitlist').click();
    await frame.getByRole('heading', { name: 'Join the waitlist for Tuesday 16 June 2026' }).waitFor();
    await frame.getByLabel('From').selectOption('19:00');
    await frame.getByLabel('Until').selectOption('21:00');
    await frame.getByLabel('Name').fill('Wanda Waiting');
    await frame.getByLabel('Email').fill('wanda@example.com');
    await frame.getByLabel('Phone (optional)').fill('+44 7700 900456');
    await expectAccessible(page);
    await expectFitsPhone(page);
    await screenshot(page, 'waitlist-form');
    await button(frame, 'Join the waitlist').click();
    await frame.getByText('You are on the waitlist').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'waitlist-joined');

    const list = await h.t.app.inject({ url: `${venueUrl}/waitlist?date=2026-06-16&kind=online`, headers: h.staff });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        kind: 'online',
        status: 'waiting',
        position: 1,
        guest_name: 'Wanda Waiting',
        guest_email: 'wanda@example.com',
        guest_phone: '+44 7700 900456',
        party_size: 2,
        time_from: '19:00',
        time_to: '21:00',
      }),
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

/**
 * Live updates through the server's own change stream (`GET /api/my-venues/{venueId}/changes`, server-sent
 * events read with fetch and the bearer token): a booking made through the public booking API, as the
 * widget makes it, appears on an open floor without a reload, long before any poll. And when the stream
 * is refused (its caps), the floor says so and polling carries on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, openPortal, signIn, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;

/** A guest's booking through the public API, as the widget sends it, at the first free time from 14:00. */
async function widgetBooking(guestName: string) {
  const slots = (await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/availability?date=${h.today}&party_size=2` })).json() as {
    slots: { time: string; access_rule_id: string; available: boolean }[];
  };
  const slot = slots.slots.find((s) => s.available && s.time >= '14:00')!;
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${h.venueId}/book`,
    payload: {
      access_rule_id: slot.access_rule_id,
      rule_type: 'table',
      date: h.today,
      time: slot.time,
      party_size: 2,
      guest_name: guestName,
      guest_email: `${guestName.split(' ')[0].toLowerCase()}@example.test`,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe.skipIf(!chromiumPresent)('live updates', () => {
  beforeAll(async () => {
    h = await startPortal();
  }, 60_000);
  afterAll(async () => h?.close());

  it('shows a booking made through the widget’s API on an open floor through the stream, with no poll', async () => {
    // Polling every 10 minutes: only the stream can bring the booking within the test.
    const { page, problems } = await openPortal(h, 1280, 600_000);
    const streams: { auth?: string; status?: number }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/api/my-venues/${h.venueId}/changes`)) streams.push({ auth: request.headers().authorization });
    });
    page.on('response', (response) => {
      if (response.url().endsWith(`/api/my-venues/${h.venueId}/changes`)) streams[streams.length - 1].status = response.status();
    });
    await page.goto(`${h.origin}/app/floor?venue=${h.venueId}`);
    await signIn(page);
    await page.getByRole('region', { name: 'Reservations by table and time' }).waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    expect(streams[0]).toMatchObject({ status: 200 });
    expect(streams[0].auth).toMatch(/^Bearer /);
    let bookingReads = 0;
    page.on('request', (request) => {
      if (request.url().includes(`/api/my-venues/${h.venueId}/bookings?`)) bookingReads++;
    });

    const started = Date.now();
    await widgetBooking('Stella Stream');
    await page.locator('.strip, .pill').filter({ hasText: 'Stella Stream' }).first().waitFor({ timeout: 5_000 });
    // Brought by the event (coalesced at 250 ms) and one refetch, well before any poll.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(bookingReads).toBeGreaterThan(0);
    // One stream, still open: no reconnects.
    expect(streams).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('falls back to polling when the stream is refused, and says so', async () => {
    const { page, problems } = await openPortal(h, 1280, 1000);
    let refused = 0;
    await page.route('**/api/my-venues/*/changes', async (route) => {
      refused++;
      await route.fulfill({ status: 503, headers: { 'retry-after': '30', 'content-type': 'application/json' }, body: '{"error":"Busy"}' });
    });
    await page.goto(`${h.origin}/app/floor?venue=${h.venueId}`);
    await signIn(page);
    await page.getByRole('region', { name: 'Reservations by table and time' }).waitFor();
    await expect.poll(() => refused).toBe(1);
    await page.getByText('Auto-refresh', { exact: true }).waitFor();
    await widgetBooking('Polly Poll');
    await page.locator('.strip, .pill').filter({ hasText: 'Polly Poll' }).first().waitFor({ timeout: 8_000 });
    // The server's Retry-After (30 s) is honoured: no second try meanwhile.
    expect(refused).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

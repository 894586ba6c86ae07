/**
 * Live updates through the venue's change stream (`GET /api/venues/{venueId}/changes`, server-sent events
 * read with fetch): an event refreshes an open floor at once, long before the 30-second poll. The stream
 * is played here by the browser's request routing, so the test does not depend on the server having it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, openPortal, signIn, staffBooking, startPortal, tableId, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;

describe.skipIf(!chromiumPresent)('live updates', () => {
  beforeAll(async () => {
    h = await startPortal();
  }, 60_000);
  afterAll(async () => h?.close());

  it('refreshes the floor on a `bookings` event from the change stream, with the bearer token', async () => {
    const { page, problems } = await openPortal(h, 1280);
    let changed = false;
    const auth: (string | undefined)[] = [];
    await page.route('**/api/venues/*/changes', async (route) => {
      auth.push(route.request().headers().authorization);
      // A ping while nothing changed; once a booking is made elsewhere, the event. Each answer ends the
      // stream, and the portal reconnects.
      const body = changed ? `event: bookings\ndata: {"venue_id":"${h.venueId}"}\n\n` : ': ping\n\n';
      await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body });
    });
    await page.goto(`${h.origin}/app/floor?venue=${h.venueId}`);
    await signIn(page);
    await page.getByRole('region', { name: 'Reservations by table and time' }).waitFor();
    await expect.poll(() => auth.length).toBeGreaterThan(0);
    expect(auth[0]).toMatch(/^Bearer /);

    await staffBooking(h, { time: '17:30', guest_name: 'Stella Stream', table_ids: [await tableId(h, '24')] });
    changed = true;
    // Well within the poll's 30 s: the event, on the next reconnect (2 s), refreshed the floor.
    await page.getByRole('button', { name: /^Stella Stream,/ }).waitFor({ timeout: 8_000 });
    expect(problems).toEqual([]);
  });
});

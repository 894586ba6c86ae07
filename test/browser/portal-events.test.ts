/**
 * Events in the portal on the demo venue: a new event created with two ticket types and published (a
 * second event onto a held date shows the clashing event, linked), a ticket bought through the events
 * widget with the simulated provider's test card, the cancellation preview showing the refund it would
 * make (and kept), the buyer on the door list, checked in; then a read-only role sees no changes offered.
 * The API confirms each step; axe on every page and dialog; screenshots at 1280 and 820 px.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { createStaff, TEST_PASSWORD, TINY_IMAGES } from '../helpers/app.js';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

// Each step drives two pages on a shared two-core machine.
vi.setConfig({ testTimeout: 90_000 });

let h: PortalHarness;
let page: Page;
let problems: string[];
let eventId: string;

interface EventJson {
  id: string;
  name: string;
  status: string;
  event_date: string;
  start_time: string | null;
  guest_list_capacity: number | null;
}

async function api<T>(url: string): Promise<T> {
  const res = await h.t.app.inject({ url, headers: h.staff });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}
const venueEvents = async () => (await api<{ data: EventJson[] }>(`/api/my-venues/${h.venueId}/events?limit=100`)).data;
const ticketTypes = async () =>
  (
    await api<{ data: { id: string; name: string; price_pence: number; capacity: number | null; sold: number }[] }>(
      `/api/my-events/${eventId}/ticket-types`,
    )
  ).data;
const doorList = async () =>
  (
    await api<{
      data: { id: string; status: string; guest_email: string; quantity: number; ticket_name: string; payment_status: string }[];
    }>(`/api/my-events/${eventId}/bookings`)
  ).data;

const form = (name: string) => page.getByRole('form', { name });

describe.skipIf(!chromiumPresent)('portal: events', () => {
  beforeAll(async () => {
    h = await startPortal({ realOrigin: true });
    ({ page, problems } = await openSignedIn(h, `/floor?venue=${h.venueId}`, /15 Jun 2026/));
  }, 60_000);
  afterAll(async () => h?.close());

  it('lists the venue’s events by status from the nav', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Northern Soul All-Nighter' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'events-list');

    await page
      .getByRole('navigation', { name: 'Event status' })
      .getByRole('link', { name: /^Draft/ })
      .click();
    await page.getByRole('link', { name: 'Quiz Night' }).waitFor();
    expect(await page.getByRole('link', { name: 'Northern Soul All-Nighter' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('status')).toBe('draft');
    await page.getByRole('navigation', { name: 'Event status' }).getByRole('link', { name: /^All/ }).click();
  });

  it('creates a draft event, adds two ticket types and publishes it', async () => {
    await page.getByRole('button', { name: 'New event' }).click();
    const create = form('New event');
    await create.getByLabel('Name').fill('Midsummer Social');
    await create.getByLabel('Date').fill(h.today);
    await create.getByLabel('Doors open').fill('14:00');
    await create.getByLabel('Ends').fill('23:00');
    await create.getByLabel('Capacity (guests)').fill('120');
    await create.getByLabel('Type (e.g. club night)').fill('party');
    await expectAccessible(page);
    await create.getByRole('button', { name: 'Create draft event' }).click();
    await page.getByRole('heading', { name: 'Midsummer Social', level: 1 }).waitFor();
    const created = (await venueEvents()).find((e) => e.name === 'Midsummer Social')!;
    expect(created).toMatchObject({ status: 'draft', event_date: h.today, start_time: '14:00', guest_list_capacity: 120 });
    eventId = created.id;
    expect(page.url()).toContain(`/app/events/${eventId}`);

    for (const [name, price, capacity] of [
      ['Early bird', '10', '50'],
      ['On the door', '15.50', ''],
    ]) {
      await page.getByRole('button', { name: 'New ticket type' }).click();
      const ticket = form('New ticket type');
      await ticket.getByLabel('Ticket name').fill(name);
      await ticket.getByLabel('Price (£)').fill(price);
      await ticket.getByLabel('How many (empty: unlimited)').fill(capacity);
      await ticket.getByRole('button', { name: 'Add ticket type' }).click();
      await page.getByText(name, { exact: true }).waitFor();
    }
    expect((await ticketTypes()).map((t) => [t.name, t.price_pence, t.capacity])).toEqual([
      ['Early bird', 1000, 50],
      ['On the door', 1550, null],
    ]);
    await page.getByText('£15.50 · 0 sold · unlimited').waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published.' }).waitFor();
    expect((await api<{ data: EventJson }>(`/api/my-events/${eventId}`)).data.status).toBe('approved');
    await expectAccessible(page);
    await screenshot(page, 'event-published');
  });

  it('edits the details, edits and removes a ticket type, and uploads a picture', async () => {
    await page.getByRole('button', { name: 'Edit details' }).click();
    const edit = form('Edit Midsummer Social');
    await edit.getByLabel('Genre').fill('disco');
    await edit.getByLabel('Description').fill('Sunshine and records.');
    await edit.getByRole('button', { name: 'Save details' }).click();
    await page.getByText('Sunshine and records.').waitFor();
    expect((await api<{ data: EventJson & { event_genre: string; description: string } }>(`/api/my-events/${eventId}`)).data).toMatchObject(
      {
        event_genre: 'disco',
        description: 'Sunshine and records.',
      },
    );

    await page.getByRole('button', { name: 'Edit On the door' }).click();
    const ticket = form('Edit On the door');
    await ticket.getByLabel('How many (empty: unlimited)').fill('30');
    await ticket.getByRole('button', { name: 'Save ticket type' }).click();
    await page.getByText('£15.50 · 0 sold of 30').waitFor();
    expect((await ticketTypes()).find((t) => t.name === 'On the door')!.capacity).toBe(30);
    await page.getByRole('button', { name: 'Delete On the door' }).click();
    await page.getByRole('button', { name: 'Really delete On the door' }).click();
    await expect.poll(async () => (await ticketTypes()).map((t) => t.name)).toEqual(['Early bird']);

    const picture = page.getByRole('region', { name: 'Picture' });
    await picture.getByLabel('Choose a banner picture').setInputFiles({
      name: 'social.png',
      mimeType: 'image/png',
      buffer: Buffer.from(TINY_IMAGES.png.split(',')[1], 'base64'),
    });
    await picture.getByRole('button', { name: 'Upload banner' }).click();
    await picture.getByRole('status').filter({ hasText: 'Banner saved.' }).waitFor();
    const saved = (await api<{ data: { image_url: string | null } }>(`/api/my-events/${eventId}`)).data;
    expect(saved.image_url).toMatch(/\/uploads\//);
    await picture.getByRole('img', { name: 'Current banner' }).waitFor();
    // Stock photos are not configured in tests: the server's refusal is shown, the picture kept.
    await picture.getByRole('button', { name: 'Find a stock photo' }).click();
    await picture.getByRole('alert').waitFor();
    expect((await api<{ data: { image_url: string | null } }>(`/api/my-events/${eventId}`)).data.image_url).toBe(saved.image_url);
    await expectAccessible(page);
  });

  it('shows a same-day clash as the clashing event, linked', async () => {
    const held = (await venueEvents()).find((e) => e.name === 'Northern Soul All-Nighter')!;
    await page.goto(`${h.origin}/app/events?venue=${h.venueId}`);
    await page.getByRole('button', { name: 'New event' }).click();
    const create = form('New event');
    await create.getByLabel('Name').fill('Second Booking');
    await create.getByLabel('Date').fill(held.event_date);
    await create.getByRole('button', { name: 'Create draft event' }).click();
    await page.getByRole('heading', { name: 'Second Booking', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    const clash = page.getByRole('alert').filter({ hasText: 'already holds that date' });
    await clash.waitFor();
    const second = (await venueEvents()).find((e) => e.name === 'Second Booking')!;
    expect(second.status).toBe('draft');
    await expectAccessible(page);
    await clash.getByRole('link', { name: 'Northern Soul All-Nighter' }).click();
    await page.getByRole('heading', { name: 'Northern Soul All-Nighter', level: 1 }).waitFor();
    expect(page.url()).toContain(`/app/events/${held.id}`);
  });

  it('sells a ticket through the events widget, previews the cancellation, and checks the guest in from the door list', async () => {
    const settings = await api<{ data: Record<string, { public_id: string }> }>(`/api/my-venues/${h.venueId}/widget-settings`);
    const guest = await h.browser.newContext({ viewport: { width: 390, height: 844 } });
    const widget = await guest.newPage();
    widget.setDefaultTimeout(10_000);
    await widget.goto(`${h.origin}/widget/${settings.data.events.public_id}`);
    await widget.getByRole('button', { name: /^Tickets for Midsummer Social/ }).click();
    await widget.getByRole('heading', { name: 'Midsummer Social', level: 1 }).waitFor();
    await widget.getByLabel(/^Early bird/).check();
    await widget.getByLabel('How many').selectOption('2');
    await widget.getByLabel('Name').fill('Maya Dancer');
    await widget.getByLabel('Email').fill('maya@example.com');
    await widget.getByRole('button', { name: 'Continue: £20' }).click();
    await widget.getByLabel(/succeeds/).check();
    await widget.getByRole('button', { name: 'Pay £20' }).click();
    await widget.getByText(/Booked\. Your tickets are on their way/).waitFor();
    await guest.close();
    const [sold] = await doorList();
    expect(sold).toMatchObject({
      status: 'confirmed',
      guest_email: 'maya@example.com',
      quantity: 2,
      ticket_name: 'Early bird',
      payment_status: 'paid',
    });
    expect((await ticketTypes()).find((t) => t.name === 'Early bird')!.sold).toBe(2);

    await page.goto(`${h.origin}/app/events/${eventId}?venue=${h.venueId}`);
    await page.getByRole('heading', { name: 'Midsummer Social', level: 1 }).waitFor();
    const door = page.getByRole('region', { name: 'Door list' });
    await door.getByRole('cell', { name: /^Maya Dancer/ }).waitFor();
    await page.getByText('Early bird: 2 sold of 50').waitFor();
    await page.getByRole('region', { name: 'Sales' }).getByText('£20').waitFor();

    // Cancelling first shows what it would refund; kept, nothing changes.
    await page.getByRole('button', { name: 'Cancel event…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Midsummer Social?' });
    await dialog.getByText('1 booking will be cancelled and each guest told; 1 refunded, £20 in all.').waitFor();
    await dialog.getByRole('cell', { name: 'Refund', exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel event and refund £20' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'event-cancel-preview');
    await dialog.getByRole('button', { name: 'Keep the event' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api<{ data: EventJson }>(`/api/my-events/${eventId}`)).data.status).toBe('approved');

    await door.getByRole('button', { name: 'Check in Maya Dancer' }).click();
    await page.getByRole('status').filter({ hasText: 'Maya Dancer is checked in.' }).waitFor();
    await door.getByRole('cell', { name: /Checked in/ }).waitFor();
    expect((await doorList())[0]).toMatchObject({ status: 'checked_in' });
    await expectAccessible(page);
    await screenshot(page, 'event-door');

    await page.setViewportSize({ width: 820, height: 860 });
    // One column at this width: the door list comes after the event's settings.
    await door.scrollIntoViewIfNeeded();
    await screenshot(page, 'event-door');
    await page.goto(`${h.origin}/app/events?venue=${h.venueId}`);
    await page.getByRole('link', { name: 'Midsummer Social' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'events-list');
    expect(problems).toEqual([]);
  });

  it('offers no changes to a role that may only read events', async () => {
    const reader = await createStaff(h.t, { operatorId: h.operatorId } as Parameters<typeof createStaff>[1], {
      events: 'read',
      bookings: 'read',
    });
    const opened = await openSignedIn(h, `/events/${eventId}?venue=${h.venueId}`, 'Midsummer Social', {
      user: { email: reader.email, password: TEST_PASSWORD },
    });
    const p = opened.page;
    await p.getByText('Your role may look at this event but not change it.').waitFor();
    expect(await p.getByRole('button', { name: /Publish|Cancel event|Edit details|New ticket type|Check in/ }).count()).toBe(0);
    await p
      .getByRole('region', { name: 'Door list' })
      .getByRole('cell', { name: /^Maya Dancer/ })
      .waitFor();
    await expectAccessible(p);
    await p.goto(`${h.origin}/app/events?venue=${h.venueId}`);
    await p.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    expect(await p.getByRole('button', { name: 'New event' }).count()).toBe(0);
    expect(opened.problems).toEqual([]);
    await p.context().close();
  });
});

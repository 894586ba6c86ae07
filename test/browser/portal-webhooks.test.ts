/**
 * The webhook settings (`/app/webhooks`), as the demo Owner: register an endpoint (a local receiver;
 * the app runs with WEBHOOKS_ALLOW_PRIVATE), its secret shown once; a booking's event fails once, shows
 * in the delivery log with its status code, and is redelivered from the log, signed with that secret;
 * the events are changed, the secret rotated, the endpoint deleted. The API confirms each step; axe on
 * each state; screenshots at 1280 and 820.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, verifySignature } from '../../src/modules/webhooks/webhooks.test-support.js';
import {
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
let receiver: Awaited<ReturnType<typeof startReceiver>>;

type Endpoint = { id: string; url: string; events: string[]; enabled: boolean };
const endpoints = async () => {
  const res = await h.t.app.inject({ url: '/api/my-operator/webhooks', headers: h.staff });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Endpoint[] }).data;
};

describe.skipIf(!chromiumPresent)('the webhook settings', () => {
  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startPortal({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    ({ page, problems } = await openSignedIn(h, '/webhooks', 'Webhooks'));
  }, 150_000);
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('links the page from the navigation and starts empty', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'webhooks-empty');
  });

  let secret = '';
  it('registers an endpoint and shows its secret once, with a copy button', async () => {
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('form', { name: 'New endpoint' });
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByLabel('Description').fill('Our till');
    await form.getByRole('checkbox', { name: /Ticket sold/ }).check();
    await expectAccessible(page);
    await screenshot(page, 'webhooks-form');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const note = page.getByRole('status', { name: 'Signing secret' });
    await note.waitFor();
    secret = (await note.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(async () => (await note.getByRole('button', { name: /Copy secret|Copied/ }).count()) > 0).toBe(true);
    const [endpoint] = await endpoints();
    expect(endpoint).toMatchObject({
      url: receiver.url,
      enabled: true,
      events: ['booking.created', 'booking.updated', 'booking.cancelled', 'ticket.sold'],
    });
    await expectAccessible(page);
    await screenshot(page, 'webhooks-secret');
    await note.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => note.count()).toBe(0);
  });

  it('shows a failed delivery in the log with its status code, and redelivers it signed', async () => {
    receiver.answers.push(500);
    await staffBooking(h, { time: '13:00', duration_minutes: 60, guest_name: 'Wendy Webhook', table_ids: [await tableId(h, '5')] });
    await h.t.ctx.webhooks.delivery.deliverDue();
    expect(receiver.received).toHaveLength(1);

    await page.getByRole('button', { name: 'Deliveries' }).click();
    const table = page.getByRole('table', { name: 'Deliveries, newest first' });
    const row = table.getByRole('row').filter({ hasText: 'booking.created' });
    await row.getByText('Retrying').waitFor();
    await row.getByText('500', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'webhooks-log');

    await row.getByRole('button', { name: /^Redeliver booking\.created/ }).click();
    await row.getByText('Delivered').waitFor();
    await row.getByText('200', { exact: true }).waitFor();
    expect(receiver.received).toHaveLength(2);
    const got = receiver.received[1]!;
    verifySignature(got.headers['maitred-signature'], got.body, secret);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'booking.created', data: { object: { guest_name: 'Wendy Webhook' } } });
  });

  it('changes the events, rotates the secret and deletes the endpoint', async () => {
    await page.getByRole('button', { name: `Edit ${receiver.url}` }).click();
    const form = page.getByRole('form', { name: `Edit ${receiver.url}` });
    await form.getByRole('checkbox', { name: /Booking updated/ }).uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    expect((await endpoints())[0]!.events).toEqual(['booking.created', 'booking.cancelled', 'ticket.sold']);

    await page.getByRole('button', { name: `Rotate the secret of ${receiver.url}` }).click();
    const note = page.getByRole('status', { name: 'Signing secret' });
    await note.waitFor();
    const rotated = (await note.locator('code').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await note.getByRole('button', { name: 'Done' }).click();

    await page.setViewportSize({ width: 820, height: 860 });
    await expectAccessible(page);
    await screenshot(page, 'webhooks');
    await page.setViewportSize({ width: 1280, height: 860 });

    await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await page.getByRole('button', { name: 'Really delete' }).click();
    await page.getByText('No endpoints yet.').waitFor();
    expect(await endpoints()).toEqual([]);
    expect(problems).toEqual([]);
  });
});

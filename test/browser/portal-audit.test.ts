/**
 * The audit log (`/app/audit-log`), as the demo Owner: a table's capacity changed through the API shows
 * with its actor and its before → after; the area filter narrows to tables and to another area with
 * nothing recorded; axe on each state; screenshots at 1280.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumPresent,
  expectAccessible,
  openSignedIn,
  screenshot,
  startPortal,
  venueTables,
  type PortalHarness,
} from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

describe.skipIf(!chromiumPresent)('the audit log', () => {
  beforeAll(async () => {
    h = await startPortal();
    const [table] = await venueTables(h);
    const res = await h.t.app.inject({
      method: 'PUT',
      url: `/api/my-venues/${h.venueId}/tables/${table.id}`,
      headers: h.staff,
      payload: { capacity: table.capacity + 2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    ({ page, problems } = await openSignedIn(h, '/audit-log', 'Audit log'));
  }, 150_000);
  afterAll(async () => h?.close());

  it('shows who changed a table, with the field before and after, linked from the navigation', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'table updated' }).first();
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/capacity/);
    await expectAccessible(page);
    await screenshot(page, 'audit-log');
  });

  it('narrows by area', async () => {
    await page.getByLabel('Area').selectOption('table');
    await page.getByRole('row').filter({ hasText: 'table updated' }).first().waitFor();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'voucher' }).count()).toBe(0);
    await page.getByLabel('Area').selectOption('guest');
    await page.getByText('No changes recorded for this choice.').waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});

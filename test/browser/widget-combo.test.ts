/**
 * The combo widget (tabs over the enabled widgets) as a guest uses it on a phone, and every widget page
 * reflowing at 320 px (WCAG 1.4.10): no horizontal overflow, the frame as tall as its content, no axe
 * violations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumPresent,
  expectAccessible,
  expectFitsPhone,
  openEmbedded,
  screenshot,
  startHarness,
  type Harness,
} from './widget-harness.js';

let h: Harness;

describe.skipIf(!chromiumPresent)('combo widget and reflow in chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('shows the enabled widgets as tabs, moved between by keyboard, each loading its own flow', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.combo);
    const tabs = frame.getByRole('tab');
    await expect.poll(() => tabs.allInnerTexts()).toEqual(['Book a table', "What's on", 'Gift vouchers']);
    await frame
      .getByRole('tabpanel', { name: 'Book a table' })
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);

    await frame.getByRole('tab', { name: 'Book a table' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const vouchers = frame.getByRole('tab', { name: 'Gift vouchers' });
    await expect.poll(() => vouchers.getAttribute('aria-selected')).toBe('true');
    await frame.getByRole('tabpanel', { name: 'Gift vouchers' }).getByRole('heading', { name: 'Gift vouchers', level: 1 }).waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'combo-vouchers');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  for (const type of ['bookings', 'events', 'vouchers', 'combo'] as const) {
    it(`reflows the ${type} widget at 320 px`, async () => {
      const { page, frame, problems } = await openEmbedded(h, h.publicIds[type], 320);
      await frame.locator('main, [role="tablist"]').first().waitFor();
      await page.waitForTimeout(500);
      await expectFitsPhone(page);
      await expectAccessible(page);
      await screenshot(page, `${type}-320`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});

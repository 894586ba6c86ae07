/**
 * The widgets' weight budget (issue: ≤ 35 KB gzipped of initial JavaScript per widget page; Stripe.js
 * is loaded only at the payment step, so it is not part of it): measured on the build the test set-up
 * made, with the same code as `npm run widget:sizes`.
 */
import { describe, expect, it } from 'vitest';
import { widgetSizes } from '../../../bench/widget-sizes.js';

describe('widget weight', () => {
  it('keeps every page within 35 KB of gzipped JavaScript before the guest acts, and never loads Stripe.js up front', () => {
    const sizes = widgetSizes();
    expect(Object.keys(sizes).sort()).toEqual(['account', 'bookings', 'combo', 'events', 'loader', 'manage', 'vouchers']);
    for (const [page, { js }] of Object.entries(sizes)) {
      expect(js.gzip, page).toBeLessThanOrEqual(35 * 1024);
      expect(js.gzip, page).toBeGreaterThan(0);
    }
    expect(sizes.loader.js.gzip).toBeLessThanOrEqual(3 * 1024);
  });
});

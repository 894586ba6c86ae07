/**
 * The widget pages without a widget build (an install without dev dependencies, or before the first
 * build): the API still starts, and a widget's page answers 503 with a plain notice until a build
 * appears, which is found without a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.js';
import { widgetBuildLoader } from './widget-build.js';
import { createWidgetPages } from './widget-pages.service.js';

const config = {
  venue: { id: 'ven_1', name: 'Bar', timezone: 'Europe/London' },
  widget: { enabled: true, width: 'medium', custom_css: '', accent_color: '#123456' },
  branding: { bg_color: '#ffffff', text_color: '#000000', font_key: 'sans' },
};

describe('widget pages without a build', () => {
  it('answers 503 while there is no build, then serves the page once one appears', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-build-'));
    let now = 0;
    const build = widgetBuildLoader(dir, () => now);
    const pages = createWidgetPages({
      widgetPage: async (publicId) => ({ type: 'bookings', publicId, venueId: 'ven_1', config }),
      build,
      clock: fixedClock(new Date('2026-06-15T12:00:00Z')),
    });
    expect(build()).toBeUndefined();
    expect(pages.loader()).toBeUndefined();
    expect(pages.asset('x.js')).toBeUndefined();
    expect(pages.manage().status).toBe(503);
    const page = await pages.page('wgt_1');
    expect(page.status).toBe(503);
    expect(page.html).toContain('being prepared');

    // A build lands: found at the next look (looked for again after a few seconds, not on every request).
    const real = path.resolve('dist/widget');
    fs.cpSync(real, dir, { recursive: true });
    expect(build()).toBeUndefined();
    now += 10_000;
    const served = await pages.page('wgt_1');
    expect(served.status).toBe(200);
    expect(served.html).toContain('"today":"2026-06-15"');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

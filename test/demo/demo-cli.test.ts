/**
 * `maitred demo` from the command line: the JSON line carries each enabled widget's loader snippet and
 * the host page it wrote (beside a SQLite database, else under ./data), a page of "the venue's site"
 * embedding every widget through its loader.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('maitred demo --json', () => {
  it('prints the embed snippets and writes a host page that embeds every enabled widget', async () => {
    const env = { ...process.env, DATABASE_URL: t.db.url, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://floor.test:3000' };
    const result = await runCli(['demo', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const demo = JSON.parse(result.stdout) as {
      embed: Record<string, string>;
      host_page: string;
      widgets: Record<string, string | null>;
      portal_url: string;
      email: string;
      password: string;
    };
    // The portal and the login it opens with.
    expect(demo.portal_url).toBe('http://floor.test:3000/app/');
    expect(demo).toMatchObject({ email: 'demo@maitred.local', password: 'maitred-demo' });
    expect(Object.keys(demo.embed).sort()).toEqual(['bookings', 'combo', 'events', 'vouchers']);
    for (const [type, snippet] of Object.entries(demo.embed)) {
      const publicId = /\/widget\/(wgt_[a-z2-7]+)$/.exec(demo.widgets[type] ?? '')![1];
      expect(snippet).toContain(`<div data-maitred-widget="${publicId}"`);
      expect(snippet).toContain('<noscript><a href=');
      expect(snippet).toContain('<script async src="');
    }
    const page = fs.readFileSync(demo.host_page, 'utf8');
    for (const snippet of Object.values(demo.embed)) expect(page).toContain(snippet);
    expect(page).toContain('<title>The Night Owl (demo site)</title>');

    // Without --json (the demo exists now): the portal URL and the login, in words.
    const text = await runCli(['demo'], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Operator portal: http://floor.test:3000/app/');
    expect(text.stdout).toContain('Log in as demo@maitred.local with the password maitred-demo.');
  });

  it('says the base URL its addresses are under, the server’s rule (PORT without PUBLIC_BASE_URL), and stores the logo as a path', async () => {
    const { PUBLIC_BASE_URL: _base, ...env } = process.env;
    const result = await runCli(['demo', '--json'], { env: { ...env, PORT: '3456', DATABASE_URL: t.db.url, LOG_LEVEL: 'silent' } });
    expect(result.code, result.stderr).toBe(0);
    const demo = JSON.parse(result.stdout) as { base_url: string; widgets: Record<string, string | null>; embed: Record<string, string> };
    expect(demo.base_url).toBe('http://localhost:3456');
    for (const url of Object.values(demo.widgets)) if (url) expect(url.startsWith('http://localhost:3456/widget/')).toBe(true);
    const logos = await t.db.kysely.selectFrom('venues').select('logo_url').where('logo_url', 'is not', null).execute();
    expect(logos.length).toBeGreaterThan(0);
    for (const { logo_url } of logos) expect(logo_url).toMatch(/^\/uploads\/[0-9a-f]{64}\.\w+$/);
  });
});

/**
 * The widget pages as a browser fetches them: the page of an enabled widget of a live venue with its
 * config inlined, the closed page (404) otherwise, the theme stylesheet with the operator's CSS as text
 * only, the hashed assets (immutable), the loader (loadable from any origin), the framing headers on
 * these answers only, and the embed snippets in the operator's widget settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_BASE_URL: 'https://book.maitred.example' });
});
afterAll(async () => t.close());

async function liveWidget(type = 'bookings', venueFields: Record<string, unknown> = {}) {
  const setup = await setupVenue(t, { name: 'Widget Bar', ...venueFields });
  const res = await setup.api.put(`/widget-settings/${type}`, { enabled: true });
  expect(res.statusCode, res.body).toBe(200);
  const publicId = (res.json() as { public_id: string }).public_id;
  return { ...setup, publicId };
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function inlinedConfig(html: string) {
  const match = /<script type="application\/json" id="maitred-config">(.*?)<\/script>/s.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]) as {
    type: string;
    public_id: string;
    venue_id: string;
    protocol: number;
    config: { venue: { name: string } };
  };
}

const cspOf = (header: unknown) =>
  new Map(
    String(header)
      .split(';')
      .map((part) => {
        const [name, ...sources] = part.trim().split(/\s+/);
        return [name, sources];
      }),
  );

describe('GET /widget/:publicId', () => {
  it('serves the page of that widget type with the venue config inlined, frameable by any origin, revalidated by ETag', async () => {
    const { publicId, venueId } = await liveWidget();
    const res = await get(`/widget/${publicId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const csp = cspOf(res.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(['*']);
    expect(csp.get('script-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://challenges.cloudflare.com']);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    const data = inlinedConfig(res.body);
    // today is the venue's date by the server's clock (the test clock: 2026-06-15T12:00Z).
    expect(data).toMatchObject({ type: 'bookings', public_id: publicId, venue_id: venueId, protocol: 1, today: '2026-06-15' });
    expect(data.config.venue.name).toBe('Widget Bar');
    expect(res.body).toContain('<title>Book a table at Widget Bar</title>');

    const etag = res.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get(`/widget/${publicId}`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('links its hashed script and styles, served with immutable caching and their content types', async () => {
    const { publicId } = await liveWidget();
    const html = (await get(`/widget/${publicId}`)).body;
    const script = /<script type="module" src="(\/widget\/assets\/[^"]+\.js)"/.exec(html)![1];
    const style = /<link rel="stylesheet" href="(\/widget\/assets\/[^"]+\.css)"/.exec(html)![1];
    for (const [url, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [style, 'text/css; charset=utf-8'],
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body.length).toBeGreaterThan(0);
    }
  });

  it('serves each widget type its own entry', async () => {
    const scripts = new Set<string>();
    for (const type of ['bookings', 'events', 'combo']) {
      const { publicId } = await liveWidget(type);
      const html = (await get(`/widget/${publicId}`)).body;
      expect(inlinedConfig(html).type).toBe(type);
      scripts.add(/<script type="module" src="([^"]+)"/.exec(html)![1]);
    }
    expect(scripts.size).toBe(3);
  });

  it('answers the friendly closed page with 404 for an unknown id, a disabled widget and a venue that is not live', async () => {
    const enabled = await liveWidget();
    const disabled = await liveWidget();
    await disabled.api.put('/widget-settings/bookings', { enabled: false });
    await t.db.kysely.updateTable('venues').set({ status: 'draft' }).where('id', '=', enabled.venueId).execute();
    for (const url of [`/widget/wgt_nope`, `/widget/${disabled.publicId}`, `/widget/${enabled.publicId}`, '/widget/%3Cscript%3E']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('This page is not available');
      expect(res.body).not.toContain('<script');
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
  });

  it('keeps text from the venue out of the markup: names are escaped and the inlined JSON cannot end its element', async () => {
    const { publicId } = await liveWidget('bookings', { name: '</script><script>alert(1)</script> & "Co"' });
    const html = (await get(`/widget/${publicId}`)).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<title>Book a table at &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;</title>');
    expect(inlinedConfig(html).config.venue.name).toBe('</script><script>alert(1)</script> & "Co"');
  });
});

describe('GET /widget/:publicId/theme.css', () => {
  it('is the brand colours and font as custom properties, then the custom CSS as stylesheet text', async () => {
    const { publicId, api } = await liveWidget();
    await api.put('/branding', { accent_color: '#123456', font_key: 'serif' });
    const css = '.mw-title { letter-spacing: 2px } /* </style><script>alert(1)</script> */';
    expect((await api.put('/widget-theme', { custom_css: css })).statusCode).toBe(200);
    const res = await get(`/widget/${publicId}/theme.css`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.body).toContain('--mw-accent: #123456;');
    expect(res.body).toContain('--mw-font: "Iowan Old Style"');
    expect(res.body).toContain(css);
    // The page links the stylesheet; the operator's CSS is never part of the HTML.
    const html = (await get(`/widget/${publicId}`)).body;
    expect(html).toContain(`<link rel="stylesheet" href="/widget/${publicId}/theme.css">`);
    expect(html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '')).not.toContain('letter-spacing');
  });

  it('is 404 for a widget that is not served', async () => {
    expect((await get('/widget/wgt_nope/theme.css')).statusCode).toBe(404);
  });
});

describe('assets and the loader', () => {
  it('refuses names outside the build', async () => {
    for (const url of ['/widget/assets/..%2F..%2Fpackage.json', '/widget/assets/.vite', '/widget/assets/nope.js']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('serves the loader at a stable address, loadable from any origin and revalidated every few minutes', async () => {
    const res = await get('/widget/loader.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body).toContain('maitred-widget');
  });

  it('leaves the strict headers on everything else', async () => {
    const { op } = await liveWidget();
    for (const res of [await get('/api/my-venues', op.headers), await get('/healthz')]) {
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(cspOf(res.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
    }
  });
});

describe('embed snippets in the widget settings', () => {
  it('gives each widget a plain iframe and the loader with its noscript link, names escaped', async () => {
    const { api, publicId } = await liveWidget('bookings', { name: 'Bar <"B">' });
    const res = await api.get('/widget-settings');
    expect(res.statusCode).toBe(200);
    const bookings = (res.json() as { data: { bookings: { public_id: string; embed: { iframe: string; loader: string } } } }).data.bookings;
    expect(bookings.public_id).toBe(publicId);
    const url = `https://book.maitred.example/widget/${publicId}`;
    expect(bookings.embed.iframe).toBe(
      `<iframe src="${url}" title="Book a table at Bar &lt;&quot;B&quot;&gt;" allow="payment" loading="lazy" style="display:block;width:100%;max-width:560px;height:720px;border:0"></iframe>`,
    );
    expect(bookings.embed.loader).toBe(
      `<div data-maitred-widget="${publicId}" data-maitred-title="Book a table at Bar &lt;&quot;B&quot;&gt;"><noscript><a href="${url}">Book a table at Bar &lt;&quot;B&quot;&gt;</a></noscript></div>\n` +
        '<script async src="https://book.maitred.example/widget/loader.js"></script>',
    );
  });
});

/**
 * Event images over HTTP on both engines: the upload (2 MB, images only) and generate-image through the
 * stock-photo adapter against a local fake of Unsplash's API (started here): the photo and its credit,
 * download tracking, the fallback to the event type, 404 without a match, 502 on provider failure and
 * 503 when unconfigured.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, pngOfSize, TINY_IMAGES, type TestApp } from '../../../test/helpers/app.js';
import { createEvent, setupEvents } from './events.test-support.js';

interface Seen {
  path: string;
  authorization: string | undefined;
}

let fake: http.Server;
let fakeBase: string;
const seen: Seen[] = [];
/** What the fake answers for a search query (by query text); `fail` answers 500. */
const answers = new Map<string, unknown>();

const photo = (id: string) => ({
  id,
  urls: { regular: `https://images.unsplash.test/photo-${id}?w=1080` },
  links: { html: `https://unsplash.test/photos/${id}`, download_location: `${fakeBase}/photos/${id}/download` },
  user: { name: 'Ansel Adams', links: { html: 'https://unsplash.test/@ansel' } },
});

let t: TestApp;
let unconfigured: TestApp;
beforeAll(async () => {
  fake = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    seen.push({ path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
    if (url.pathname === '/search/photos') {
      const answer = answers.get(url.searchParams.get('query') ?? '') ?? { total: 0, results: [] };
      if (answer === 'fail') return res.writeHead(500).end('{"errors":["boom"]}');
      if (answer === 'garbage') return res.writeHead(200, { 'content-type': 'application/json' }).end('not json');
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    }
    if (url.pathname.endsWith('/download')) return res.writeHead(200, { 'content-type': 'application/json' }).end('{"url":"x"}');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeBase = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  t = await createTestApp({ UNSPLASH_ACCESS_KEY: 'test-access-key', UNSPLASH_API_BASE: fakeBase });
  unconfigured = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await unconfigured.close();
  await new Promise((resolve) => fake.close(resolve));
});

describe('POST /api/my-events/generate-image', () => {
  it('finds a photo, tracks its download, and keeps its credit on the event', async () => {
    answers.set('Jazz Brunch club night', { total: 1, results: [photo('abc')] });
    const { venueId, events } = await setupEvents(t);
    seen.length = 0;
    const res = await events.post('/generate-image', { name: 'Jazz Brunch', event_type: 'club_night' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      url: 'https://images.unsplash.test/photo-abc?w=1080',
      attribution: {
        photographer: 'Ansel Adams',
        photographer_url: 'https://unsplash.test/@ansel?utm_source=maitred&utm_medium=referral',
        unsplash_url: 'https://unsplash.test/photos/abc?utm_source=maitred&utm_medium=referral',
      },
    });
    expect(seen.map((s) => s.path)).toEqual([
      expect.stringMatching(/^\/search\/photos\?query=Jazz\+Brunch\+club\+night&per_page=1/),
      '/photos/abc/download',
    ]);
    expect(seen.every((s) => s.authorization === 'Client-ID test-access-key')).toBe(true);

    const id = await createEvent(events, venueId, { image_url: res.json().url, image_attribution: res.json().attribution });
    expect((await events.get(`/${id}`)).json().data).toMatchObject({
      image_url: res.json().url,
      image_attribution: res.json().attribution,
    });
    // Another image without a credit clears it.
    expect((await events.put(`/${id}`, { image_url: 'https://maitred.test/uploads/own.png' })).statusCode).toBe(200);
    expect((await events.get(`/${id}`)).json().data.image_attribution).toBeNull();
  });

  it('requests download tracking only on the API host: the access key goes nowhere else', async () => {
    const elsewhere: Seen[] = [];
    const other = http.createServer((req, res) => {
      elsewhere.push({ path: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"url":"x"}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const { events } = await setupEvents(t);
      for (const [query, location] of [
        ['Other host', `${otherBase}/photos/x/download`],
        ['Not a url', 'javascript:alert(1)'],
        ['Lookalike', `${fakeBase.replace('http://', 'http://u:')}@${otherBase.slice('http://'.length)}/photos/x/download`],
      ] as const) {
        answers.set(query, { total: 1, results: [{ ...photo('x'), links: { ...photo('x').links, download_location: location } }] });
        seen.length = 0;
        const res = await events.post('/generate-image', { name: query });
        expect(res.statusCode, res.body).toBe(200);
        expect(seen.map((s) => s.path)).toEqual([expect.stringMatching(/^\/search\/photos\?/)]);
      }
      expect(elsewhere).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('refuses a credit link or an image address that is not http(s) (security round 2)', async () => {
    const { venueId, events } = await setupEvents(t);
    const credit = { photographer: 'Mallory', photographer_url: 'https://unsplash.test/@m', unsplash_url: 'https://unsplash.test/p' };
    const hostile = ['javascript:alert(document.domain)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', '//', 'https://'];
    for (const url of hostile) {
      for (const field of ['photographer_url', 'unsplash_url'] as const) {
        const res = await events.post('', {
          venue_id: venueId,
          name: 'Credit',
          event_date: '2026-07-01',
          image_url: 'https://images.example/a.jpg',
          image_attribution: { ...credit, [field]: url },
        });
        expect(res.statusCode, `${field} ${url}`).toBe(400);
        expect(res.json().error).toMatch(/http\(s\) URL/);
      }
    }
    const id = await createEvent(events, venueId, { image_url: '/uploads/own.png', image_attribution: credit });
    expect((await events.put(`/${id}`, { image_url: 'javascript:alert(1)' })).statusCode).toBe(400);
    expect((await events.put(`/${id}`, { image_attribution: { ...credit, unsplash_url: 'javascript:alert(1)' } })).statusCode).toBe(400);
    expect((await events.get(`/${id}`)).json().data).toMatchObject({ image_url: '/uploads/own.png', image_attribution: credit });
  });

  it('falls back to the event type, and answers 404 when nothing matches', async () => {
    answers.set('disco', { total: 1, results: [photo('disco1')] });
    const { events } = await setupEvents(t);
    expect((await events.post('/generate-image', { name: 'Xyzzy', event_type: 'disco' })).json().url).toMatch(/photo-disco1/);
    expect((await events.post('/generate-image', { name: 'Nothing at all' })).statusCode).toBe(404);
  });

  it('answers 502 when the provider fails or answers garbage, and 400 for a bad body', async () => {
    answers.set('Broken', 'fail');
    answers.set('Garbled', 'garbage');
    const { events } = await setupEvents(t);
    expect((await events.post('/generate-image', { name: 'Broken' })).statusCode).toBe(502);
    expect((await events.post('/generate-image', { name: 'Garbled' })).statusCode).toBe(502);
    expect((await events.post('/generate-image', {})).statusCode).toBe(400);
    expect((await events.post('/generate-image', { name: '' })).statusCode).toBe(400);
  });

  it('answers 502 when the provider cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = await createTestApp({ UNSPLASH_ACCESS_KEY: 'k', UNSPLASH_API_BASE: `http://127.0.0.1:${port}` });
    try {
      const { events } = await setupEvents(down);
      const res = await events.post('/generate-image', { name: 'Anything' });
      expect(res.statusCode).toBe(502);
    } finally {
      await down.close();
    }
  });

  it('answers 503 when stock images are not configured', async () => {
    const { events } = await setupEvents(unconfigured);
    const res = await events.post('/generate-image', { name: 'Anything' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/UNSPLASH_ACCESS_KEY/);
  });
});

describe('POST /api/my-events/image', () => {
  it('stores an image of up to 2 MB and answers its url', async () => {
    const { events } = await setupEvents(t);
    const res = await events.post('/image', { data: TINY_IMAGES.png });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ url: expect.stringMatching(/^http:\/\/maitred\.test\/uploads\/[0-9a-f]{64}\.png$/) });
    const served = await t.app.inject({ url: new URL(res.json().url).pathname });
    expect(served.statusCode).toBe(200);
    expect((await events.post('/image', { data: pngOfSize(2 * 1024 * 1024) })).statusCode).toBe(200);
  });

  it('refuses an image over 2 MB, a non-image and a missing body (400)', async () => {
    const { events } = await setupEvents(t);
    const big = await events.post('/image', { data: pngOfSize(2 * 1024 * 1024 + 1) });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toMatch(/too large/);
    expect((await events.post('/image', { data: `data:image/png;base64,${Buffer.from('<svg/>').toString('base64')}` })).statusCode).toBe(
      400,
    );
    expect((await events.post('/image', {})).statusCode).toBe(400);
  });
});

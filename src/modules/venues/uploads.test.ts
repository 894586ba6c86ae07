/**
 * The shared image-upload service end to end, through the venue's upload routes: types recognised by
 * their bytes, per-route size limits, content-addressed storage of the re-encoded image and immutable
 * static serving (decoding and re-encoding themselves: uploads.reencode.test.ts).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  pngOfSize,
  TINY_IMAGES,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { api, readVenue } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

const KB = 1024;
const MB = 1024 * KB;
const bytesOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The stored file behind an upload URL: named by the SHA-256 of its bytes, the same image (format and
 * size) as the one sent, and served byte for byte as stored.
 */
async function expectStored(url: string, sent: string, ext: string, mime: string) {
  const match = new RegExp(`^http://maitred\\.test/uploads/([0-9a-f]{64})\\.${ext}$`).exec(url);
  expect(match, url).not.toBeNull();
  const stored = fs.readFileSync(path.join(t.config.uploadsDir, `${match![1]}.${ext}`));
  expect(sha256(stored)).toBe(match![1]);
  const [was, is] = await Promise.all([sharp(bytesOf(sent)).metadata(), sharp(stored).metadata()]);
  expect([is.format, is.width, is.height]).toEqual([was.format, was.width, was.height]);
  const served = await t.app.inject({ url: new URL(url).pathname });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe(mime);
  expect(served.rawPayload).toEqual(stored);
  return served;
}

const SVG = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>').toString('base64')}`;
const TEXT = `data:image/png;base64,${Buffer.from('just some text, not an image').toString('base64')}`;

/** Every upload route of the module, its limit, and where the stored URL can be read back. */
const ROUTES = [
  { name: 'venue logo', url: (v: string) => `/api/venues/${v}/logo`, limit: 500 * KB, field: 'logo_url' },
  { name: 'branding logo', url: (v: string) => `/api/my-venues/${v}/branding-logo`, limit: 2 * MB, field: 'url' },
  { name: 'cover image', url: (v: string) => `/api/my-venues/${v}/cover-image`, limit: 3 * MB, field: 'url' },
  { name: 'widget logo', url: (v: string) => `/api/my-venues/${v}/widget-logo`, limit: 2 * MB, field: 'url' },
] as const;

describe('accepted images', () => {
  const expected = {
    png: ['png', 'image/png'],
    jpeg: ['jpg', 'image/jpeg'],
    gif: ['gif', 'image/gif'],
    webp: ['webp', 'image/webp'],
  } as const;
  for (const [kind, [ext, mime]] of Object.entries(expected)) {
    it(`stores a ${kind} content-addressed and serves it immutable`, async () => {
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      const image = TINY_IMAGES[kind as keyof typeof TINY_IMAGES];
      const res = await http.post(`/api/venues/${venueId}/logo`, op, { data: image });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        logo_url: expect.stringMatching(new RegExp(`^http://maitred\\.test/uploads/[0-9a-f]{64}\\.${ext}$`)),
      });
      expect((await readVenue(t, op, venueId)).logo_url).toBe(res.json().logo_url);

      const served = await expectStored(res.json().logo_url, image, ext, mime);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    });
  }

  it('stores the same image once, under the same URL', async () => {
    const op = await createOperator(t);
    const a = await insertVenue(t, op.operatorId);
    const b = await insertVenue(t, op.operatorId);
    const first = (await http.post(`/api/venues/${a}/logo`, op, { data: TINY_IMAGES.gif })).json().logo_url;
    const second = (await http.post(`/api/venues/${b}/logo`, op, { data: TINY_IMAGES.gif })).json().logo_url;
    expect(second).toBe(first);
  });

  it('recognises a JPEG declared as PNG by its bytes', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const disguised = TINY_IMAGES.jpeg.replace('data:image/jpeg', 'data:image/png');
    const res = await http.post(`/api/venues/${venueId}/logo`, op, { data: disguised });
    expect(res.statusCode).toBe(200);
    expect(res.json().logo_url).toMatch(/\.jpg$/);
    const served = await t.app.inject({ url: new URL(res.json().logo_url).pathname });
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('accepts an image of exactly the limit, even the largest one', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    expect((await http.post(`/api/venues/${venueId}/logo`, op, { data: pngOfSize(500 * KB) })).statusCode).toBe(200);
    const cover = await http.post(`/api/my-venues/${venueId}/cover-image`, op, { data: pngOfSize(3 * MB) });
    expect(cover.statusCode).toBe(200);
  });

  it('answers 404 for a file that was never uploaded', async () => {
    expect((await t.app.inject({ url: `/uploads/${'0'.repeat(64)}.png` })).statusCode).toBe(404);
  });
});

describe('every upload route', () => {
  /** Where each route's stored URL is read back. */
  const readBack: Record<(typeof ROUTES)[number]['name'], (op: TestOperator, venueId: string) => Promise<string | null>> = {
    'venue logo': async (op, venueId) => (await readVenue(t, op, venueId)).logo_url,
    'branding logo': async (op, venueId) => (await http.get(`/api/my-venues/${venueId}/branding`, op)).json().logo_url,
    'cover image': async (op, venueId) => (await readVenue(t, op, venueId)).cover_image_url,
    'widget logo': async (op, venueId) => (await http.get(`/api/my-venues/${venueId}/widget-settings`, op)).json().data.bookings.logo_url,
  };
  const EXT = { png: ['png', 'image/png'], jpeg: ['jpg', 'image/jpeg'], gif: ['gif', 'image/gif'], webp: ['webp', 'image/webp'] } as const;

  for (const route of ROUTES) {
    it(`${route.name}: accepts PNG, JPEG, GIF and WebP, stores each under /uploads/ and records it`, async () => {
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      for (const [kind, [ext, mime]] of Object.entries(EXT)) {
        const image = TINY_IMAGES[kind as keyof typeof TINY_IMAGES];
        const res = await http.post(route.url(venueId), op, { data: image });
        expect(res.statusCode, `${route.name} ${kind}`).toBe(200);
        const url = res.json()[route.field];
        expect(res.json()).toEqual({ success: true, [route.field]: url });
        expect(await readBack[route.name](op, venueId)).toBe(url);
        await expectStored(url, image, ext, mime);
      }
    });

    it(`${route.name}: a JPEG declared as PNG is stored as the JPEG it is`, async () => {
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      const disguised = TINY_IMAGES.jpeg.replace('data:image/jpeg', 'data:image/png');
      const res = await http.post(route.url(venueId), op, { data: disguised });
      expect(res.statusCode).toBe(200);
      expect(res.json()[route.field]).toMatch(/\.jpg$/);
      expect(await readBack[route.name](op, venueId)).toBe(res.json()[route.field]);
    });

    it(`${route.name}: a refused upload leaves the stored image as it was`, async () => {
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      const first = (await http.post(route.url(venueId), op, { data: TINY_IMAGES.png })).json()[route.field];
      for (const data of [SVG, TEXT, pngOfSize(route.limit + 1)]) {
        expect((await http.post(route.url(venueId), op, { data })).statusCode).toBe(400);
      }
      expect(await readBack[route.name](op, venueId)).toBe(first);
    });
  }
});

describe('refused uploads', () => {
  for (const route of ROUTES) {
    it(`refuses an oversized ${route.name} with 400 and a clear message`, async () => {
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      const res = await http.post(route.url(venueId), op, { data: pngOfSize(route.limit + 1) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(
        new RegExp(`Image is too large: .* exceeds the ${route.limit >= MB ? `${route.limit / MB} MB` : '500 KB'} limit`),
      );
      const venue = await readVenue(t, op, venueId);
      expect(venue.logo_url).toBeNull();
      expect(venue.cover_image_url).toBeNull();
    });

    it(`refuses an SVG and a non-image as the ${route.name}`, async () => {
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      for (const data of [SVG, TEXT]) {
        const res = await http.post(route.url(venueId), op, { data });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ request_id: expect.any(String), error: 'Only PNG, JPEG, WebP and GIF images are accepted' });
      }
    });
  }

  it('refuses multipart bodies with 400', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const boundary = 'maitredboundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="data"; filename="logo.png"',
      'Content-Type: image/png',
      '',
      bytesOf(TINY_IMAGES.png).toString('binary'),
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/venues/${venueId}/logo`,
      headers: { ...op.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/Multipart bodies are not accepted/);
    expect((await readVenue(t, op, venueId)).logo_url).toBeNull();
  });

  it('refuses a missing, empty or non-base64 data field', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const cases: [unknown, RegExp][] = [
      [{}, /data/],
      [{ data: '' }, /data must be a base64 data URL of an image/],
      [{ data: 'data:image/png,notbase64' }, /data must be a base64 data URL of an image/],
      [{ data: 'data:image/png;base64,@@@@' }, /data is not valid base64/],
      [{ data: 42 }, /data/],
    ];
    for (const [payload, message] of cases) {
      const res = await http.post(`/api/venues/${venueId}/logo`, op, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
  });
});

describe('venue logo: access', () => {
  it('needs venues.branding:write and a reachable venue', async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId);
    const data = { data: TINY_IMAGES.png };
    expect((await http.post(`/api/venues/${mine}/logo`, null, data)).statusCode).toBe(401);
    expect((await http.post(`/api/venues/${mine}/logo`, await createStaff(t, op, { 'venues.settings': 'write' }), data)).statusCode).toBe(
      403,
    );
    expect((await http.post(`/api/venues/${mine}/logo`, await createStaff(t, op, { 'venues.branding': 'read' }), data)).statusCode).toBe(
      403,
    );
    expect((await http.post(`/api/venues/${theirs}/logo`, op, data)).statusCode).toBe(404);
    const scoped = await createStaff(t, op, { 'venues.branding': 'write' }, [mine]);
    expect((await http.post(`/api/venues/${second}/logo`, scoped, data)).statusCode).toBe(404);
    expect((await http.post(`/api/venues/${mine}/logo`, scoped, data)).statusCode).toBe(200);
    expect((await readVenue(t, other, theirs)).logo_url).toBeNull();
  });
});

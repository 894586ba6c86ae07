/**
 * Uploaded images are decoded and re-encoded before they are stored (src/platform/images.ts): a file
 * that only starts like an image is refused, bytes after the image and metadata (EXIF GPS) are dropped,
 * orientation is applied, animations and lossless formats survive, and decompression bombs are refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, TINY_IMAGES, type TestApp } from '../../../test/helpers/app.js';
import { isLosslessWebp } from '../../platform/images.js';
import { api, readVenue } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

const bytesOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const HTML = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
const storedFiles = () => fs.readdirSync(t.config.uploadsDir).sort();

/** A valid all-black 1-bit PNG of any size, built by hand: a few KB however many pixels it has. */
function blackPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const frame = Buffer.alloc(4);
    frame.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([frame, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth; colour type 0 (grey), no interlace
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 and black pixels per row
  return Buffer.concat([
    bytesOf(TINY_IMAGES.png).subarray(0, 8),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads `data` as a new venue's logo; returns the response and, on success, the stored bytes. */
async function uploadLogo(data: string) {
  const op = await createOperator(t);
  const venueId = await insertVenue(t, op.operatorId);
  const res = await http.post(`/api/venues/${venueId}/logo`, op, { data });
  const stored = res.statusCode === 200 ? fs.readFileSync(path.join(t.config.uploadsDir, path.basename(res.json().logo_url))) : undefined;
  return { res, stored, op, venueId };
}

describe('only real images are stored', () => {
  it('refuses a PNG header followed by HTML with 400, storing nothing', async () => {
    const before = storedFiles();
    const polyglot = Buffer.concat([bytesOf(TINY_IMAGES.png).subarray(0, 8), HTML]);
    const { res, op, venueId } = await uploadLogo(dataUrl('image/png', polyglot));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: 'Image could not be decoded: the data is not a complete, valid PNG image',
    });
    expect((await readVenue(t, op, venueId)).logo_url).toBeNull();
    expect(storedFiles()).toEqual(before);
  });

  it('refuses every format whose signature is followed by something else', async () => {
    const signatures: [string, Buffer][] = [
      ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0])],
      ['GIF', Buffer.from('GIF89a')],
      ['WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x40, 0, 0, 0]), Buffer.from('WEBP')])],
    ];
    for (const [label, signature] of signatures) {
      const { res } = await uploadLogo(dataUrl('image/png', Buffer.concat([signature, HTML])));
      expect(res.statusCode, label).toBe(400);
      expect(res.json().error).toBe(`Image could not be decoded: the data is not a complete, valid ${label} image`);
    }
  });

  it('refuses a truncated JPEG', async () => {
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const { res } = await uploadLogo(dataUrl('image/jpeg', photo.subarray(0, Math.floor(photo.length * 0.6))));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/not a complete, valid JPEG image/);
  });

  it('drops bytes appended after the image', async () => {
    const { res, stored } = await uploadLogo(dataUrl('image/png', Buffer.concat([bytesOf(TINY_IMAGES.png), HTML])));
    expect(res.statusCode).toBe(200);
    expect(stored!.includes('<script')).toBe(false);
    expect((await sharp(stored!).metadata()).format).toBe('png');
  });

  it('refuses an image of more than 50 megapixels, however small the file', async () => {
    const bomb = blackPng(8000, 7000);
    expect(bomb.length).toBeLessThan(50 * 1024);
    expect((await sharp(bomb).metadata()).width).toBe(8000);
    const { res } = await uploadLogo(dataUrl('image/png', bomb));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: 'Image is too large: more than 50 megapixels (all frames together)',
    });
  });
});

describe('what re-encoding keeps and drops', () => {
  it('strips EXIF metadata (GPS position included) and applies the orientation to the pixels', async () => {
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#cc3300' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'marker-in-exif' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const sent = await sharp(photo).metadata();
    expect(sent.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer tag
    expect(sent.orientation).toBe(6);

    const { res, stored } = await uploadLogo(dataUrl('image/jpeg', photo));
    expect(res.statusCode).toBe(200);
    const kept = await sharp(stored!).metadata();
    expect(kept.exif).toBeUndefined();
    expect(kept.orientation).toBeUndefined();
    expect(stored!.includes('marker-in-exif')).toBe(false);
    // Orientation 6 is a quarter turn: the stored pixels stand upright.
    expect([kept.width, kept.height]).toEqual([20, 40]);
  });

  it('keeps an animated GIF animated, with its frames, delays and loop count', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('#ff0000'), await frame('#00ff00'), await frame('#0000ff')], { join: { animated: true } })
      .gif({ delay: [100, 250, 400], loop: 3 })
      .toBuffer();
    const { res, stored } = await uploadLogo(dataUrl('image/gif', gif));
    expect(res.statusCode).toBe(200);
    expect(res.json().logo_url).toMatch(/\.gif$/);
    const kept = await sharp(stored!, { animated: true }).metadata();
    expect({ pages: kept.pages, delay: kept.delay, loop: kept.loop, width: kept.width, pageHeight: kept.pageHeight }).toEqual({
      pages: 3,
      delay: [100, 250, 400],
      loop: 3,
      width: 8,
      pageHeight: 8,
    });
  });

  it('keeps a lossless WebP lossless and its pixels exact', async () => {
    const raw = Buffer.from(Array.from({ length: 4 * 4 * 4 }, (_, i) => (i * 37) % 256));
    const webp = await sharp(raw, { raw: { width: 4, height: 4, channels: 4 } })
      .webp({ lossless: true })
      .toBuffer();
    expect(isLosslessWebp(webp)).toBe(true);
    const { res, stored } = await uploadLogo(dataUrl('image/webp', webp));
    expect(res.statusCode).toBe(200);
    expect(isLosslessWebp(stored!)).toBe(true);
    const [sentPixels, keptPixels] = await Promise.all([sharp(webp).raw().toBuffer(), sharp(stored!).raw().toBuffer()]);
    expect(keptPixels).toEqual(sentPixels);
  });

  it('keeps a PNG lossless', async () => {
    const raw = Buffer.from(Array.from({ length: 16 * 16 * 3 }, (_, i) => (i * 91) % 256));
    const png = await sharp(raw, { raw: { width: 16, height: 16, channels: 3 } })
      .png()
      .toBuffer();
    const { res, stored } = await uploadLogo(dataUrl('image/png', png));
    expect(res.statusCode).toBe(200);
    const [sentPixels, keptPixels] = await Promise.all([sharp(png).raw().toBuffer(), sharp(stored!).raw().toBuffer()]);
    expect(keptPixels).toEqual(sentPixels);
  });

  it('tells lossy from lossless WebP by its chunks', async () => {
    const image = sharp({ create: { width: 4, height: 4, channels: 4, background: '#ff000080' } });
    expect(isLosslessWebp(await image.clone().webp({ lossless: true }).toBuffer())).toBe(true);
    expect(isLosslessWebp(await image.clone().webp({ quality: 50 }).toBuffer())).toBe(false);
    expect(isLosslessWebp(bytesOf(TINY_IMAGES.webp))).toBe(false);
  });
});

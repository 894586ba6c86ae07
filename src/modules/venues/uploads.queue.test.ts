/**
 * What an upload may cost (src/platform/images.ts, src/platform/image-queue.ts): re-encodes run through
 * a small queue of their own, and a full queue answers 503 with Retry-After at once, storing nothing;
 * GIFs and animations have a smaller pixel budget and a frame cap. Deterministic: the queue is held by
 * a task the test releases, never timed (login latency under uploads is measured by `bench/uploads.ts`).
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, TINY_IMAGES, type TestApp } from '../../../test/helpers/app.js';
import { createImageQueue, IMAGE_QUEUE_FULL_MESSAGE } from '../../platform/image-queue.js';
import { AppError } from '../../platform/errors.js';
import { api } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp({ IMAGE_CONCURRENCY: '1', IMAGE_QUEUE_SIZE: '1' });
  http = api(t);
});
afterAll(async () => t.close());

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const storedFiles = () => fs.readdirSync(t.config.uploadsDir).sort();

/** A task that holds a queue slot until the test lets it go. */
function holder() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { task: () => held, release };
}

describe('the image queue', () => {
  it('runs at most its concurrency at once, queues its size more, and refuses the rest with 503 and Retry-After', async () => {
    const queue = createImageQueue({ concurrency: 2, queueSize: 1 });
    const [a, b, c] = [holder(), holder(), holder()];
    const order: string[] = [];
    const run = (name: string, h: ReturnType<typeof holder>) =>
      queue.run(async () => {
        order.push(name);
        await h.task();
        return name;
      });
    const first = run('a', a);
    const second = run('b', b);
    const third = run('c', c);
    expect([queue.running, queue.waiting]).toEqual([2, 1]);
    const refused = await queue.run(async () => 'd').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, message: IMAGE_QUEUE_FULL_MESSAGE });
    expect(Number((refused as AppError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    a.release();
    expect(await first).toBe('a');
    // The freed slot went to the waiting task, never above the concurrency.
    await Promise.resolve();
    expect(order).toEqual(['a', 'b', 'c']);
    expect([queue.running, queue.waiting]).toEqual([2, 0]);
    b.release();
    c.release();
    expect(await Promise.all([second, third])).toEqual(['b', 'c']);
    expect([queue.running, queue.waiting]).toEqual([0, 0]);
  });

  it('gives the slot back when a task fails', async () => {
    const queue = createImageQueue({ concurrency: 1, queueSize: 0 });
    await expect(queue.run(async () => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    expect(await queue.run(async () => 'next')).toBe('next');
    expect(queue.running).toBe(0);
  });

  it('over HTTP: a full queue answers 503 with Retry-After and stores nothing; the upload succeeds once it drains', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const before = storedFiles();
    // IMAGE_CONCURRENCY=1, IMAGE_QUEUE_SIZE=1: one running, one waiting, then full.
    const [running, waiting] = [holder(), holder()];
    const held = [t.ctx.uploads.queue.run(running.task), t.ctx.uploads.queue.run(waiting.task)];
    try {
      for (const [route, body] of [
        [`/api/my-venues/${venueId}/branding-logo`, { data: TINY_IMAGES.png }],
        [`/api/my-venues/${venueId}/cover-image`, { data: TINY_IMAGES.jpeg }],
        [`/api/venues/${venueId}/logo`, { data: TINY_IMAGES.gif }],
      ] as const) {
        const res = await http.post(route, op, body);
        expect(res.statusCode, route).toBe(503);
        expect(res.json()).toEqual({ request_id: expect.any(String), error: IMAGE_QUEUE_FULL_MESSAGE });
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      expect(storedFiles()).toEqual(before);
      expect((await http.get(`/api/my-venues/${venueId}/branding`, op)).json()).toMatchObject({ logo_url: null, cover_image_url: null });
    } finally {
      running.release();
      waiting.release();
      await Promise.all(held);
    }
    const res = await http.post(`/api/my-venues/${venueId}/branding-logo`, op, { data: TINY_IMAGES.png });
    expect(res.statusCode).toBe(200);
  });

  it('documents the 503 on every upload route', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    for (const path of [
      '/api/venues/{id}/logo',
      '/api/my-venues/{venueId}/branding-logo',
      '/api/my-venues/{venueId}/cover-image',
      '/api/my-venues/{venueId}/widget-logo',
      '/api/my-events/image',
      '/api/my-venues/{venueId}/access-rules/{id}/image',
      '/api/my-venues/{venueId}/bundles/{id}/items/{itemId}/image',
    ]) {
      expect(doc.paths[path]?.post.responses['503'].description, path).toMatch(/upload queue is full/);
    }
  });
});

describe('what an upload may cost', () => {
  const frame = (colour: string) =>
    sharp({ create: { width: 4, height: 4, channels: 3, background: colour } })
      .png()
      .toBuffer();

  it('refuses an animation of more than 100 frames, however small', async () => {
    const frames = await Promise.all(Array.from({ length: 101 }, (_, i) => frame(i % 2 ? '#ff0000' : '#0000ff')));
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(gif, { animated: true }).metadata()).pages).toBe(101);
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const res = await http.post(`/api/my-venues/${venueId}/branding-logo`, op, { data: dataUrl('image/gif', gif) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: 'Image has too many frames: more than 100' });
  });

  it('refuses a GIF of more than 5 megapixels, all frames together, while a still PNG of that size is fine', async () => {
    const gif = await sharp({ create: { width: 2500, height: 2100, channels: 3, background: '#000000' } })
      .gif()
      .toBuffer();
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const res = await http.post(`/api/my-venues/${venueId}/branding-logo`, op, { data: dataUrl('image/gif', gif) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: 'Image is too large: a GIF or an animation may have at most 5 megapixels (all frames together)',
    });
    const png = await sharp({ create: { width: 2500, height: 2100, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    expect((await http.post(`/api/my-venues/${venueId}/branding-logo`, op, { data: dataUrl('image/png', png) })).statusCode).toBe(200);
  });
});

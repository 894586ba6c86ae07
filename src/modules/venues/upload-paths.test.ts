/**
 * Uploads are stored as paths and answered absolute under the base URL of the moment (issue 26: a
 * logo saved before PORT or PUBLIC_BASE_URL changed must not break); the migration turns our own
 * uploads' old absolute URLs into paths and leaves anything else alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadPaths } from '../../db/migrations/0017_guest_journey.js';
import { withAbsoluteUploads } from '../../platform/uploads.js';
import { createOperator, createTestApp, insertVenue, TINY_IMAGES, type TestApp } from '../../../test/helpers/app.js';
import { api, readVenue } from './venues.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const HASH = 'a'.repeat(64);

describe('upload paths', () => {
  it('stores the path and answers the absolute URL of the configured base', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const res = await api(t).post(`/api/venues/${venueId}/logo`, op, { data: TINY_IMAGES.png });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.db.kysely.selectFrom('venues').select('logo_url').where('id', '=', venueId).executeTakeFirstOrThrow();
    expect(row.logo_url).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    expect(res.json().logo_url).toBe(`http://maitred.test${row.logo_url}`);
    expect((await readVenue(t, op, venueId)).logo_url).toBe(`http://maitred.test${row.logo_url}`);

    // The same database under another base URL (a new port, a real domain): the same image, the new base.
    const moved = await createTestApp({ PUBLIC_BASE_URL: 'https://book.example' });
    try {
      const other = await createOperator(moved);
      const there = await insertVenue(moved, other.operatorId, { logo_url: row.logo_url });
      expect((await readVenue(moved, other, there)).logo_url).toBe(`https://book.example${row.logo_url}`);
    } finally {
      await moved.close();
    }
  });

  it('makes only our own upload paths absolute, copying only what changes', () => {
    const shared = { name: 'x', nested: { url: 'https://elsewhere.example/a.png' } };
    const answer = { logo_url: `/uploads/${HASH}.png`, shared, list: [`/uploads/${HASH}.webp`, '/uploads/not-ours.png', 'text'] };
    const out = withAbsoluteUploads(answer, 'https://book.example') as typeof answer;
    expect(out).toEqual({
      logo_url: `https://book.example/uploads/${HASH}.png`,
      shared,
      list: [`https://book.example/uploads/${HASH}.webp`, '/uploads/not-ours.png', 'text'],
    });
    expect(out.shared).toBe(shared);
    expect(answer.logo_url).toBe(`/uploads/${HASH}.png`);
  });

  it('answers a frozen list without upload paths as it is, and still converts every other list each time', () => {
    const base = 'https://book.example';
    const clean = Object.freeze([{ table_number: '1' }, { table_number: '2' }]);
    expect(withAbsoluteUploads(clean, base)).toBe(clean);
    expect(withAbsoluteUploads(clean, base)).toBe(clean);
    const frozenWithPath = Object.freeze([{ image: `/uploads/${HASH}.png` }]);
    for (let i = 0; i < 2; i++) expect(withAbsoluteUploads(frozenWithPath, base)).toEqual([{ image: `${base}/uploads/${HASH}.png` }]);
    // A list that may still change is walked every time: a path added after the first answer is converted.
    const open: { image: string }[] = [{ image: 'none' }];
    expect(withAbsoluteUploads(open, base)).toBe(open);
    open.push({ image: `/uploads/${HASH}.gif` });
    expect(withAbsoluteUploads(open, base)).toEqual([{ image: 'none' }, { image: `${base}/uploads/${HASH}.gif` }]);
  });

  it('migrates our own uploads’ absolute URLs to paths, whatever host or port they were saved under', async () => {
    const op = await createOperator(t);
    const own = await insertVenue(t, op.operatorId, { logo_url: `http://localhost:3000/uploads/${HASH}.png` });
    const cover = await insertVenue(t, op.operatorId, { cover_image_url: `https://old.example/uploads/${HASH}.jpg` });
    const foreign = await insertVenue(t, op.operatorId, { logo_url: 'https://cdn.example/logo.png' });
    await uploadPaths(t.db.kysely);
    const rows = await t.db.kysely
      .selectFrom('venues')
      .select(['id', 'logo_url', 'cover_image_url'])
      .where('id', 'in', [own, cover, foreign])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(own)!.logo_url).toBe(`/uploads/${HASH}.png`);
    expect(byId.get(cover)!.cover_image_url).toBe(`/uploads/${HASH}.jpg`);
    expect(byId.get(foreign)!.logo_url).toBe('https://cdn.example/logo.png');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  expectCreated,
  insertVenue,
  pngOfSize,
  setupVenue,
  TINY_IMAGES,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';
import { countRows, insertAccessRule, readRow } from '../../../test/helpers/rows.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let api: VenueApi;

beforeAll(async () => {
  t = await createTestApp();
  ({ op, venueId, api } = await setupVenue(t));
});
afterAll(async () => t.close());

async function createBundle(body: object = { name: 'Bundle' }, a = api): Promise<string> {
  return expectCreated(await a.post('/bundles', body));
}

async function createItem(bundleId: string, body: object = { name: 'Item', price: 500 }, a = api): Promise<string> {
  return expectCreated(await a.post(`/bundles/${bundleId}/items`, body));
}

async function bundle(id: string) {
  const res = await api.get('/bundles');
  expect(res.statusCode).toBe(200);
  return (res.json().data as { id: string; name: string; applicable_profiles: string[]; items: Record<string, unknown>[] }[]).find(
    (b) => b.id === id,
  );
}

describe('bundles', () => {
  it('creates with applicable_profiles defaulting to both, and reads back with items', async () => {
    const id = await createBundle({ name: '  Champagne  ' });
    expect(await bundle(id)).toEqual({
      id,
      name: 'Champagne',
      applicable_profiles: ['tables', 'events'],
      items: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const nulled = await createBundle({ name: 'Null means both', applicable_profiles: null });
    expect((await bundle(nulled))?.applicable_profiles).toEqual(['tables', 'events']);
    const eventsOnly = await createBundle({ name: 'Events', applicable_profiles: ['events'] });
    expect((await bundle(eventsOnly))?.applicable_profiles).toEqual(['events']);
  });

  it('updates only the fields sent', async () => {
    const id = await createBundle({ name: 'Before', applicable_profiles: ['tables'] });
    expect((await api.put(`/bundles/${id}`, { name: 'After' })).json()).toEqual({ success: true });
    expect(await bundle(id)).toMatchObject({ name: 'After', applicable_profiles: ['tables'] });
    expect((await api.put(`/bundles/${id}`, { applicable_profiles: ['events', 'tables'] })).statusCode).toBe(200);
    expect(await bundle(id)).toMatchObject({ name: 'After', applicable_profiles: ['tables', 'events'] });
  });

  it.each([
    [{}, /name/],
    [{ name: '' }, /name/],
    [{ name: '   ' }, /name/],
    [{ name: 'x', applicable_profiles: [] }, /applicable_profiles/],
    [{ name: 'x', applicable_profiles: ['bar'] }, /applicable_profiles/],
    [{ name: 'x', applicable_profiles: ['tables', 'tables'] }, /applicable_profiles/],
    [{ name: 'x', applicable_profiles: 'tables' }, /applicable_profiles/],
  ])('create %j → 400', async (body, message) => {
    const res = await api.post('/bundles', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('refuses an empty name on update', async () => {
    const id = await createBundle();
    expect((await api.put(`/bundles/${id}`, { name: ' ' })).statusCode).toBe(400);
  });

  it('deleting removes its items and takes it off access rules and profiles', async () => {
    const id = await createBundle({ name: 'Going' });
    const keep = await createBundle({ name: 'Staying' });
    await createItem(id);
    await createItem(id, { name: 'Second', price: 0 });
    const rule = await insertAccessRule(t, venueId, { bundles_enabled: 1, bundle_ids: JSON.stringify([id, keep]) });
    const onlyThis = await insertAccessRule(t, venueId, { bundle_ids: JSON.stringify([id]) });
    const profile = (await api.post('/table-profiles', { name: 'With bundles', bundle_ids: [id, keep] })).json().id;

    expect((await api.del(`/bundles/${id}`)).json()).toEqual({ success: true });
    expect(await bundle(id)).toBeUndefined();
    expect(await countRows(t, 'bundle_items', { bundle_id: id })).toBe(0);
    expect(JSON.parse((await readRow(t, 'access_rules', rule))!.bundle_ids)).toEqual([keep]);
    expect(JSON.parse((await readRow(t, 'access_rules', onlyThis))!.bundle_ids)).toEqual([]);
    const profiles = (await api.get('/table-profiles')).json().data as { id: string; bundle_ids: string[] }[];
    expect(profiles.find((p) => p.id === profile)?.bundle_ids).toEqual([keep]);
    expect((await api.del(`/bundles/${id}`)).statusCode).toBe(404);
  });
});

describe('bundle items', () => {
  it('creates, reads back, updates (null clears) and deletes items', async () => {
    const bundleId = await createBundle();
    const id = await createItem(bundleId, { name: 'Bottle', price: 9500, max_qty: 4, image_url: 'https://cdn.example/bottle.png' });
    expect((await bundle(bundleId))?.items).toEqual([
      {
        id,
        bundle_id: bundleId,
        name: 'Bottle',
        price: 9500,
        max_qty: 4,
        image_url: 'https://cdn.example/bottle.png',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    const minimal = await createItem(bundleId, { name: 'Free', price: 0 });
    const relative = await createItem(bundleId, { name: 'Relative', price: 1, image_url: '/uploads/abc.png' });
    const blank = await createItem(bundleId, { name: 'Blank', price: 1, image_url: '' });
    const item = async (itemId: string) => (await bundle(bundleId))?.items.find((i) => i.id === itemId);
    expect(await item(minimal)).toMatchObject({ name: 'Free', price: 0, max_qty: null, image_url: null });
    expect(await item(relative)).toMatchObject({ image_url: '/uploads/abc.png' });
    expect(await item(blank)).toMatchObject({ image_url: null });
    expect((await api.put(`/bundles/${bundleId}/items/${relative}`, { image_url: 'javascript:void(0)' })).statusCode).toBe(400);
    expect((await api.put(`/bundles/${bundleId}/items/${relative}`, { image_url: '' })).statusCode).toBe(200);
    expect(await item(relative)).toMatchObject({ image_url: null });
    await api.del(`/bundles/${bundleId}/items/${relative}`);
    await api.del(`/bundles/${bundleId}/items/${blank}`);

    expect((await api.put(`/bundles/${bundleId}/items/${id}`, { price: 8000, max_qty: null })).json()).toEqual({ success: true });
    expect(await item(id)).toMatchObject({ name: 'Bottle', price: 8000, max_qty: null, image_url: 'https://cdn.example/bottle.png' });
    expect((await api.put(`/bundles/${bundleId}/items/${id}`, { image_url: null, name: 'Magnum' })).statusCode).toBe(200);
    expect(await item(id)).toMatchObject({ name: 'Magnum', image_url: null });

    expect((await api.del(`/bundles/${bundleId}/items/${id}`)).json()).toEqual({ success: true });
    expect((await bundle(bundleId))?.items.map((i) => i.id)).toEqual([minimal]);
    expect((await api.del(`/bundles/${bundleId}/items/${id}`)).statusCode).toBe(404);
  });

  it.each([
    [{ price: 100 }, /name/],
    [{ name: 'x' }, /price/],
    [{ name: 'x', price: -1 }, /price/],
    [{ name: 'x', price: 9.99 }, /price/],
    [{ name: 'x', price: '500' }, /price/],
    [{ name: 'x', price: 1, max_qty: 0 }, /max_qty/],
    [{ name: ' ', price: 1 }, /name/],
    [{ name: 'x', price: 1, image_url: 'javascript:alert(1)' }, /image_url/],
    [{ name: 'x', price: 1, image_url: 'data:image/png;base64,AAAA' }, /image_url/],
    [{ name: 'x', price: 1, image_url: 'bottle.png' }, /image_url/],
    [{ name: 'x', price: 1, image_url: 'https://cdn.example/a b.png' }, /image_url/],
    [{ name: 'x', price: 1, image_url: 5 }, /image_url/],
  ])('create %j → 400', async (body, message) => {
    const bundleId = await createBundle();
    const res = await api.post(`/bundles/${bundleId}/items`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('refuses invalid updates', async () => {
    const bundleId = await createBundle();
    const id = await createItem(bundleId);
    expect((await api.put(`/bundles/${bundleId}/items/${id}`, { price: -5 })).statusCode).toBe(400);
    expect((await api.put(`/bundles/${bundleId}/items/${id}`, { name: '' })).statusCode).toBe(400);
    expect((await bundle(bundleId))?.items[0]).toMatchObject({ name: 'Item', price: 500 });
  });

  it('uploads an image and stores its url as the item’s image_url', async () => {
    const bundleId = await createBundle();
    const id = await createItem(bundleId);
    const res = await api.post(`/bundles/${bundleId}/items/${id}/image`, { data: TINY_IMAGES.png });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, url: expect.stringMatching(/^http:\/\/maitred\.test\/uploads\/[0-9a-f]{64}\.png$/) });
    expect((await bundle(bundleId))?.items[0].image_url).toBe(res.json().url);
    const served = await t.app.inject({ url: new URL(res.json().url).pathname });
    expect(served.statusCode).toBe(200);
  });

  it.each([
    ['too large', pngOfSize(2 * 1024 * 1024 + 1), /too large/],
    [
      'not an image',
      `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`,
      /PNG, JPEG, WebP and GIF/,
    ],
    ['not base64', 'data:image/png;base64,@@@', /base64/],
  ])('refuses an image that is %s', async (_case, data, message) => {
    const bundleId = await createBundle();
    const id = await createItem(bundleId);
    const res = await api.post(`/bundles/${bundleId}/items/${id}/image`, { data });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect((await bundle(bundleId))?.items[0].image_url).toBeNull();
  });

  it('accepts an image of exactly 2 MB', async () => {
    const bundleId = await createBundle();
    const id = await createItem(bundleId);
    expect((await api.post(`/bundles/${bundleId}/items/${id}/image`, { data: pngOfSize(2 * 1024 * 1024) })).statusCode).toBe(200);
  });
});

describe('bundle access control', () => {
  it('answers 401, 403 for missing permissions, and 404 for other venues’ bundles and items', async () => {
    expect((await t.app.inject({ url: `/api/my-venues/${venueId}/bundles` })).statusCode).toBe(401);
    const reader = await createStaff(t, op, { catalogue: 'read' });
    const asReader = venueApi(t, reader.headers, venueId);
    expect((await asReader.get('/bundles')).statusCode).toBe(200);
    expect((await asReader.post('/bundles', { name: 'No' })).statusCode).toBe(403);
    const profilesOnly = await createStaff(t, op, { profiles: 'write' });
    expect((await venueApi(t, profilesOnly.headers, venueId).get('/bundles')).statusCode).toBe(403);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    const theirApi = venueApi(t, stranger.headers, theirVenue);
    expect((await venueApi(t, op.headers, theirVenue).get('/bundles')).statusCode).toBe(404);
    const theirBundle = await createBundle({ name: 'Theirs' }, theirApi);
    const theirItem = await createItem(theirBundle, { name: 'Theirs', price: 1 }, theirApi);
    expect((await api.put(`/bundles/${theirBundle}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.del(`/bundles/${theirBundle}`)).statusCode).toBe(404);
    expect((await api.post(`/bundles/${theirBundle}/items`, { name: 'x', price: 1 })).statusCode).toBe(404);
    expect((await api.put(`/bundles/${theirBundle}/items/${theirItem}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.del(`/bundles/${theirBundle}/items/${theirItem}`)).statusCode).toBe(404);
    expect((await api.post(`/bundles/${theirBundle}/items/${theirItem}/image`, { data: TINY_IMAGES.gif })).statusCode).toBe(404);

    // An item addressed through another bundle of the right venue is not found.
    const mine = await createBundle();
    const mineToo = await createBundle();
    const item = await createItem(mine);
    expect((await api.put(`/bundles/${mineToo}/items/${item}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.post(`/bundles/${mineToo}/items/${item}/image`, { data: TINY_IMAGES.gif })).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createOperator, createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp, type TestOperator, type VenueApi } from '../../../test/helpers/app.js';
import { DEFAULT_TAG_CATALOGUE } from './tags.defaults.js';
import type { CatalogueCategory as Category } from './tags.service.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let api: VenueApi;

beforeAll(async () => {
  t = await createTestApp();
  ({ op, venueId, api } = await setupVenue(t));
});
afterAll(async () => t.close());

async function catalogue(kind?: string, a = api): Promise<Category[]> {
  const res = await a.get(`/tag-catalogue${kind ? `?kind=${kind}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const category = async (kind: string, name: string, a = api) => (await catalogue(kind, a)).find((c) => c.name === name);
const tagQuery = (kind: string, categoryName: string, label: string) =>
  `/tags?kind=${kind}&category=${encodeURIComponent(categoryName)}&label=${encodeURIComponent(label)}`;

describe('platform defaults', () => {
  it('offers a starting catalogue of guest and reservation categories', () => {
    const names = (kind: string) => DEFAULT_TAG_CATALOGUE.filter((c) => c.kind === kind).map((c) => c.name);
    expect(names('guest')).toEqual(expect.arrayContaining(['VIP', 'Dietary', 'Behaviour']));
    expect(names('reservation')).toEqual(expect.arrayContaining(['Occasion', 'Seating', 'Service']));
    for (const c of DEFAULT_TAG_CATALOGUE) expect(c.tags.length).toBeGreaterThan(0);
  });

  it('GET /api/my/tag-catalogue answers the account-wide defaults of both kinds, all marked is_default', async () => {
    const res = await t.app.inject({ url: '/api/my/tag-catalogue', headers: op.headers });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Category[];
    expect(data).toHaveLength(DEFAULT_TAG_CATALOGUE.length);
    expect(data.find((c) => c.name === 'Dietary')).toMatchObject({ kind: 'guest', is_default: true, tags: expect.arrayContaining([{ label: 'Vegan', is_default: true }]) });
    expect(data.find((c) => c.name === 'Occasion')).toMatchObject({ kind: 'reservation', is_default: true });
    expect(data.every((c) => c.is_default && c.tags.every((tag) => tag.is_default))).toBe(true);
  });

  it('GET /api/my/tag-catalogue: 401 without a session, 403 for guests and roles without catalogue', async () => {
    expect((await t.app.inject({ url: '/api/my/tag-catalogue' })).statusCode).toBe(401);
    const guest = await createGuest(t);
    expect((await t.app.inject({ url: '/api/my/tag-catalogue', headers: guest.headers })).statusCode).toBe(403);
    const noCatalogue = await createStaff(t, op, { tables: 'read' });
    expect((await t.app.inject({ url: '/api/my/tag-catalogue', headers: noCatalogue.headers })).statusCode).toBe(403);
    const reader = await createStaff(t, op, { catalogue: 'read' });
    expect((await t.app.inject({ url: '/api/my/tag-catalogue', headers: reader.headers })).statusCode).toBe(200);
  });
});

describe('venue tag catalogue', () => {
  it('filters by kind and lists both kinds without it', async () => {
    const guest = await catalogue('guest');
    expect(guest.every((c) => c.kind === 'guest')).toBe(true);
    expect(guest.map((c) => c.name)).toContain('VIP');
    const reservation = await catalogue('reservation');
    expect(reservation.every((c) => c.kind === 'reservation')).toBe(true);
    expect((await catalogue()).length).toBe(guest.length + reservation.length);
    expect((await api.get('/tag-catalogue?kind=staff')).statusCode).toBe(400);
  });

  it('adds custom tags to default and custom categories, merged with is_default false', async () => {
    expect((await api.post('/tags', { kind: 'guest', category: 'dietary', label: ' Low FODMAP ' })).json()).toEqual({ success: true });
    expect((await category('guest', 'Dietary'))?.tags).toEqual(expect.arrayContaining([{ label: 'Vegan', is_default: true }, { label: 'Low FODMAP', is_default: false }]));

    expect((await api.post('/tag-categories', { kind: 'reservation', name: 'Packages' })).json()).toEqual({ success: true });
    expect((await api.post('/tags', { kind: 'reservation', category: 'Packages', label: 'Bottomless Brunch' })).statusCode).toBe(200);
    expect(await category('reservation', 'Packages')).toEqual({
      kind: 'reservation',
      name: 'Packages',
      is_default: false,
      allow_guest_select: false,
      show_on_slip: false,
      show_in_summary: false,
      tags: [{ label: 'Bottomless Brunch', is_default: false }],
    });
    // A guest category of that name does not exist: kinds are separate.
    expect((await api.post('/tags', { kind: 'guest', category: 'Packages', label: 'x' })).statusCode).toBe(400);
  });

  it('refuses duplicates: tags and categories already present (defaults included, any case) → 409', async () => {
    expect((await api.post('/tags', { kind: 'guest', category: 'VIP', label: 'celebrity' })).statusCode).toBe(409);
    expect((await api.post('/tags', { kind: 'guest', category: 'VIP', label: 'Footballer' })).statusCode).toBe(200);
    expect((await api.post('/tags', { kind: 'guest', category: 'VIP', label: 'FOOTBALLER' })).statusCode).toBe(409);
    expect((await api.post('/tag-categories', { kind: 'guest', name: 'dietary' })).statusCode).toBe(409);
    expect((await api.post('/tag-categories', { kind: 'guest', name: 'Loyalty' })).statusCode).toBe(200);
    expect((await api.post('/tag-categories', { kind: 'guest', name: 'LOYALTY' })).statusCode).toBe(409);
    // The same name under the other kind is a different category.
    expect((await api.post('/tag-categories', { kind: 'reservation', name: 'Loyalty' })).statusCode).toBe(200);
  });

  it('creates a category with flags, and tunes flags of custom and default categories', async () => {
    expect((await api.post('/tag-categories', { kind: 'guest', name: 'Membership', allow_guest_select: true, show_on_slip: 1 })).statusCode).toBe(200);
    expect(await category('guest', 'Membership')).toMatchObject({ allow_guest_select: true, show_on_slip: true, show_in_summary: false });
    expect((await api.patch('/tag-categories', { kind: 'guest', name: 'membership', show_in_summary: true, allow_guest_select: false })).json()).toEqual({ success: true });
    expect(await category('guest', 'Membership')).toMatchObject({ allow_guest_select: false, show_on_slip: true, show_in_summary: true });

    const before = DEFAULT_TAG_CATALOGUE.find((c) => c.name === 'Seating')!;
    expect((await api.patch('/tag-categories', { kind: 'reservation', name: 'Seating', show_on_slip: !before.show_on_slip })).statusCode).toBe(200);
    expect(await category('reservation', 'Seating')).toMatchObject({
      is_default: true,
      allow_guest_select: before.allow_guest_select,
      show_on_slip: !before.show_on_slip,
      show_in_summary: before.show_in_summary,
    });
    expect((await api.patch('/tag-categories', { kind: 'reservation', name: 'Seating', show_in_summary: !before.show_in_summary })).statusCode).toBe(200);
    expect(await category('reservation', 'Seating')).toMatchObject({ show_on_slip: !before.show_on_slip, show_in_summary: !before.show_in_summary });

    // Another venue keeps the platform's flags.
    const other = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    expect(await category('reservation', 'Seating', other)).toMatchObject({ show_on_slip: before.show_on_slip });
    // The account-wide catalogue is unaffected.
    const account = (await t.app.inject({ url: '/api/my/tag-catalogue', headers: op.headers })).json().data as Category[];
    expect(account.find((c) => c.name === 'Seating')?.show_on_slip).toBe(before.show_on_slip);
  });

  it('removes custom tags; refuses defaults with 400 and unknown tags with 404', async () => {
    await api.post('/tags', { kind: 'reservation', category: 'Occasion', label: 'Graduation' });
    expect((await api.del(tagQuery('reservation', 'occasion', 'GRADUATION'))).json()).toEqual({ success: true });
    expect((await category('reservation', 'Occasion'))?.tags.map((tag) => tag.label)).not.toContain('Graduation');

    const defaultTag = await api.del(tagQuery('reservation', 'Occasion', 'Birthday'));
    expect(defaultTag.statusCode).toBe(400);
    expect(defaultTag.json().error).toMatch(/default/);
    expect((await category('reservation', 'Occasion'))?.tags.map((tag) => tag.label)).toContain('Birthday');

    expect((await api.del(tagQuery('reservation', 'Occasion', 'Graduation'))).statusCode).toBe(404);
    expect((await api.del(tagQuery('reservation', 'Nowhere', 'Graduation'))).statusCode).toBe(404);
  });

  it.each([
    ['POST /tags', 'post', '/tags', { kind: 'guest', category: 'VIP' }, /label/],
    ['POST /tags', 'post', '/tags', { kind: 'staff', category: 'VIP', label: 'x' }, /kind/],
    ['POST /tags', 'post', '/tags', { kind: 'guest', category: 'VIP', label: '   ' }, /label/],
    ['POST /tags', 'post', '/tags', { kind: 'guest', category: 'VIP', label: 'x'.repeat(61) }, /label/],
    ['POST /tags', 'post', '/tags', { kind: 'guest', category: 'Unknown', label: 'x' }, /category/],
    ['POST /tag-categories', 'post', '/tag-categories', { kind: 'guest' }, /name/],
    ['POST /tag-categories', 'post', '/tag-categories', { kind: 'guest', name: ' ' }, /name/],
    ['POST /tag-categories', 'post', '/tag-categories', { name: 'x' }, /kind/],
    ['PATCH /tag-categories', 'patch', '/tag-categories', { kind: 'guest', name: 'VIP' }, /at least one/],
    ['PATCH /tag-categories', 'patch', '/tag-categories', { kind: 'guest', name: 'VIP', show_on_slip: 'yes' }, /show_on_slip/],
    ['PATCH /tag-categories', 'patch', '/tag-categories', { name: 'VIP', show_on_slip: true }, /kind/],
  ] as const)('%s %j → 400', async (_route, method, path, body, message) => {
    const res = await api[method](path, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('DELETE /tags needs kind, category and label (400); PATCH of an unknown category is 404', async () => {
    expect((await api.del('/tags?kind=guest&category=VIP')).statusCode).toBe(400);
    expect((await api.del('/tags?kind=other&category=VIP&label=VIP')).statusCode).toBe(400);
    expect((await api.patch('/tag-categories', { kind: 'guest', name: 'Nope', show_on_slip: true })).statusCode).toBe(404);
  });

  it('keeps venues apart and answers 401, 403 and 404', async () => {
    await api.post('/tags', { kind: 'guest', category: 'Behaviour', label: 'Only here' });
    const other = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    expect((await category('guest', 'Behaviour', other))?.tags.map((tag) => tag.label)).not.toContain('Only here');

    expect((await t.app.inject({ url: `/api/my-venues/${venueId}/tag-catalogue` })).statusCode).toBe(401);
    const reader = await createStaff(t, op, { catalogue: 'read' });
    const asReader = venueApi(t, reader.headers, venueId);
    expect((await asReader.get('/tag-catalogue?kind=guest')).statusCode).toBe(200);
    expect((await asReader.post('/tags', { kind: 'guest', category: 'VIP', label: 'x' })).statusCode).toBe(403);
    expect((await asReader.del(tagQuery('guest', 'Behaviour', 'Only here'))).statusCode).toBe(403);
    expect((await asReader.post('/tag-categories', { kind: 'guest', name: 'x' })).statusCode).toBe(403);
    expect((await asReader.patch('/tag-categories', { kind: 'guest', name: 'VIP', show_on_slip: true })).statusCode).toBe(403);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = venueApi(t, op.headers, await insertVenue(t, stranger.operatorId));
    expect((await theirVenue.get('/tag-catalogue')).statusCode).toBe(404);
    expect((await theirVenue.post('/tags', { kind: 'guest', category: 'VIP', label: 'x' })).statusCode).toBe(404);
    expect((await theirVenue.del(tagQuery('guest', 'VIP', 'x'))).statusCode).toBe(404);
  });
});

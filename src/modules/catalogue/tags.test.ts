import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  setupVenue,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';
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
    expect(data.find((c) => c.name === 'Dietary')).toMatchObject({
      kind: 'guest',
      is_default: true,
      scope: 'platform',
      tags: expect.arrayContaining([{ label: 'Vegan', is_default: true, scope: 'platform' }]),
    });
    expect(data.find((c) => c.name === 'Occasion')).toMatchObject({ kind: 'reservation', is_default: true });
    expect(
      data.every((c) => c.is_default && c.scope === 'platform' && c.tags.every((tag) => tag.is_default && tag.scope === 'platform')),
    ).toBe(true);
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
    expect((await category('guest', 'Dietary'))?.tags).toEqual(
      expect.arrayContaining([
        { label: 'Vegan', is_default: true, scope: 'platform' },
        { label: 'Low FODMAP', is_default: false, scope: 'venue' },
      ]),
    );

    expect((await api.post('/tag-categories', { kind: 'reservation', name: 'Packages' })).json()).toEqual({ success: true });
    expect((await api.post('/tags', { kind: 'reservation', category: 'Packages', label: 'Bottomless Brunch' })).statusCode).toBe(200);
    expect(await category('reservation', 'Packages')).toEqual({
      kind: 'reservation',
      name: 'Packages',
      is_default: false,
      scope: 'venue',
      allow_guest_select: false,
      show_on_slip: false,
      show_in_summary: false,
      tags: [{ label: 'Bottomless Brunch', is_default: false, scope: 'venue' }],
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
    expect(
      (await api.post('/tag-categories', { kind: 'guest', name: 'Membership', allow_guest_select: true, show_on_slip: 1 })).statusCode,
    ).toBe(200);
    expect(await category('guest', 'Membership')).toMatchObject({ allow_guest_select: true, show_on_slip: true, show_in_summary: false });
    expect(
      (await api.patch('/tag-categories', { kind: 'guest', name: 'membership', show_in_summary: true, allow_guest_select: false })).json(),
    ).toEqual({ success: true });
    expect(await category('guest', 'Membership')).toMatchObject({ allow_guest_select: false, show_on_slip: true, show_in_summary: true });

    const before = DEFAULT_TAG_CATALOGUE.find((c) => c.name === 'Seating')!;
    expect(
      (await api.patch('/tag-categories', { kind: 'reservation', name: 'Seating', show_on_slip: !before.show_on_slip })).statusCode,
    ).toBe(200);
    expect(await category('reservation', 'Seating')).toMatchObject({
      is_default: true,
      allow_guest_select: before.allow_guest_select,
      show_on_slip: !before.show_on_slip,
      show_in_summary: before.show_in_summary,
    });
    expect(
      (await api.patch('/tag-categories', { kind: 'reservation', name: 'Seating', show_in_summary: !before.show_in_summary })).statusCode,
    ).toBe(200);
    expect(await category('reservation', 'Seating')).toMatchObject({
      show_on_slip: !before.show_on_slip,
      show_in_summary: !before.show_in_summary,
    });

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

describe('account-wide custom tags', () => {
  // Each test gets an operator of its own with two venues, so account rows never leak between tests.
  async function account() {
    const owner = await createOperator(t, 'Account tags');
    const first = venueApi(t, owner.headers, await insertVenue(t, owner.operatorId));
    const second = venueApi(t, owner.headers, await insertVenue(t, owner.operatorId));
    const my = {
      get: (query = '') => t.app.inject({ url: `/api/my/tag-catalogue${query}`, headers: owner.headers }),
      post: (path: string, payload: object, headers = owner.headers) =>
        t.app.inject({ method: 'POST', url: `/api${path}`, headers, payload }),
      patch: (path: string, payload: object, headers = owner.headers) =>
        t.app.inject({ method: 'PATCH', url: `/api${path}`, headers, payload }),
      del: (path: string, headers = owner.headers) => t.app.inject({ method: 'DELETE', url: `/api${path}`, headers }),
    };
    const mine = async (kind?: string) => {
      const res = await my.get(kind ? `?kind=${kind}` : '');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Category[];
    };
    return { owner, first, second, my, mine };
  }

  it('adds account categories and tags that every venue of the account sees, and no other account', async () => {
    const { first, second, my, mine } = await account();
    expect((await my.post('/my/tag-categories', { kind: 'guest', name: 'Loyalty Tier', show_in_summary: true })).json()).toEqual({
      success: true,
    });
    expect((await my.post('/my/tags', { kind: 'guest', category: 'loyalty tier', label: ' Gold ' })).json()).toEqual({ success: true });
    expect((await my.post('/my/tags', { kind: 'reservation', category: 'Occasion', label: 'Graduation' })).json()).toEqual({
      success: true,
    });

    const loyalty = {
      kind: 'guest',
      name: 'Loyalty Tier',
      is_default: false,
      scope: 'account',
      allow_guest_select: false,
      show_on_slip: false,
      show_in_summary: true,
      tags: [{ label: 'Gold', is_default: false, scope: 'account' }],
    };
    expect((await mine('guest')).find((c) => c.name === 'Loyalty Tier')).toEqual(loyalty);
    expect((await mine()).find((c) => c.name === 'Occasion')?.tags).toContainEqual({
      label: 'Graduation',
      is_default: false,
      scope: 'account',
    });
    expect((await mine('reservation')).every((c) => c.kind === 'reservation')).toBe(true);
    for (const venue of [first, second]) {
      expect(await category('guest', 'Loyalty Tier', venue)).toEqual(loyalty);
      expect((await category('reservation', 'Occasion', venue))?.tags).toContainEqual({
        label: 'Graduation',
        is_default: false,
        scope: 'account',
      });
    }

    // Another operator's account and venues, and this test file's main operator, see none of it.
    expect(await category('guest', 'Loyalty Tier')).toBeUndefined();
    const other = (await t.app.inject({ url: '/api/my/tag-catalogue', headers: op.headers })).json().data as Category[];
    expect(other.find((c) => c.name === 'Loyalty Tier')).toBeUndefined();
    expect(other.find((c) => c.name === 'Occasion')?.tags.map((tag) => tag.label)).not.toContain('Graduation');
  });

  it('lets a venue add its own tags to an account category, but not remove the account’s', async () => {
    const { first, second, my } = await account();
    await my.post('/my/tag-categories', { kind: 'reservation', name: 'Packages' });
    await my.post('/my/tags', { kind: 'reservation', category: 'Packages', label: 'Brunch' });
    expect((await first.post('/tags', { kind: 'reservation', category: 'PACKAGES', label: 'Afternoon Tea' })).statusCode).toBe(200);
    expect((await category('reservation', 'Packages', first))?.tags).toEqual([
      { label: 'Brunch', is_default: false, scope: 'account' },
      { label: 'Afternoon Tea', is_default: false, scope: 'venue' },
    ]);
    expect((await category('reservation', 'Packages', second))?.tags.map((tag) => tag.label)).toEqual(['Brunch']);

    const refused = await first.del(tagQuery('reservation', 'Packages', 'brunch'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/\/api\/my\/tags/);
    expect((await category('reservation', 'Packages', first))?.tags.map((tag) => tag.label)).toContain('Brunch');
    expect((await first.del(tagQuery('reservation', 'Packages', 'Afternoon Tea'))).statusCode).toBe(200);
  });

  it('removes account tags everywhere; refuses platform defaults (400) and unknown tags (404)', async () => {
    const { first, second, my, mine } = await account();
    await my.post('/my/tags', { kind: 'guest', category: 'VIP', label: 'Footballer' });
    expect((await category('guest', 'VIP', first))?.tags.map((tag) => tag.label)).toContain('Footballer');
    expect((await my.del(`/my${tagQuery('guest', 'vip', 'FOOTBALLER')}`)).json()).toEqual({ success: true });
    for (const venue of [first, second])
      expect((await category('guest', 'VIP', venue))?.tags.map((tag) => tag.label)).not.toContain('Footballer');
    expect((await mine('guest')).find((c) => c.name === 'VIP')?.tags.map((tag) => tag.label)).not.toContain('Footballer');

    const platform = await my.del(`/my${tagQuery('guest', 'VIP', 'Celebrity')}`);
    expect(platform.statusCode).toBe(400);
    expect(platform.json().error).toMatch(/default/);
    expect((await my.del(`/my${tagQuery('guest', 'VIP', 'Footballer')}`)).statusCode).toBe(404);
    // A venue's own tag is not the account's to remove.
    await first.post('/tags', { kind: 'guest', category: 'VIP', label: 'Venue only' });
    expect((await my.del(`/my${tagQuery('guest', 'VIP', 'Venue only')}`)).statusCode).toBe(404);
    expect((await category('guest', 'VIP', first))?.tags.map((tag) => tag.label)).toContain('Venue only');
  });

  it('refuses duplicates across levels (any case) with 409', async () => {
    const { first, my } = await account();
    expect((await my.post('/my/tag-categories', { kind: 'guest', name: 'dietary' })).statusCode).toBe(409);
    expect((await my.post('/my/tags', { kind: 'guest', category: 'Dietary', label: 'VEGAN' })).statusCode).toBe(409);
    expect((await my.post('/my/tag-categories', { kind: 'guest', name: 'Membership' })).statusCode).toBe(200);
    expect((await my.post('/my/tag-categories', { kind: 'guest', name: 'MEMBERSHIP' })).statusCode).toBe(409);
    expect((await my.post('/my/tags', { kind: 'guest', category: 'Membership', label: 'Founder' })).statusCode).toBe(200);
    expect((await my.post('/my/tags', { kind: 'guest', category: 'Membership', label: 'founder' })).statusCode).toBe(409);
    // A venue sees the account's category and tag, so it cannot add them again.
    expect((await first.post('/tag-categories', { kind: 'guest', name: 'membership' })).statusCode).toBe(409);
    expect((await first.post('/tags', { kind: 'guest', category: 'Membership', label: 'FOUNDER' })).statusCode).toBe(409);
  });

  it('folds a venue category into an account category of the same name added later', async () => {
    const { first, second, my } = await account();
    await first.post('/tag-categories', { kind: 'guest', name: 'Regulars', show_on_slip: true });
    await first.post('/tags', { kind: 'guest', category: 'Regulars', label: 'Weekly' });
    expect((await my.post('/my/tag-categories', { kind: 'guest', name: 'REGULARS', allow_guest_select: true })).statusCode).toBe(200);
    await my.post('/my/tags', { kind: 'guest', category: 'Regulars', label: 'Monthly' });

    const merged = (await catalogue('guest', first)).filter((c) => same(c.name, 'regulars'));
    expect(merged).toEqual([
      {
        kind: 'guest',
        name: 'REGULARS',
        is_default: false,
        scope: 'account',
        allow_guest_select: false, // the venue's own category row set all three flags, and the venue's settings win
        show_on_slip: true,
        show_in_summary: false,
        tags: [
          { label: 'Monthly', is_default: false, scope: 'account' },
          { label: 'Weekly', is_default: false, scope: 'venue' },
        ],
      },
    ]);
    expect(await category('guest', 'REGULARS', second)).toMatchObject({
      allow_guest_select: true,
      show_on_slip: false,
      tags: [{ label: 'Monthly' }],
    });
    // Tuning it at the venue changes the venue's own row, whatever the case (no duplicate row, no error).
    expect((await first.patch('/tag-categories', { kind: 'guest', name: 'regulars', allow_guest_select: true })).statusCode).toBe(200);
    expect((await catalogue('guest', first)).filter((c) => same(c.name, 'regulars'))).toEqual([
      expect.objectContaining({ allow_guest_select: true, show_on_slip: true }),
    ]);
    expect((await first.del(tagQuery('guest', 'Regulars', 'Weekly'))).statusCode).toBe(200);
  });

  it('tunes flags per flag: venue over account over platform', async () => {
    const { first, second, my, mine } = await account();
    const dietary = DEFAULT_TAG_CATALOGUE.find((c) => c.name === 'Dietary')!;
    expect([dietary.allow_guest_select, dietary.show_on_slip, dietary.show_in_summary]).toEqual([true, true, true]);

    expect((await my.patch('/my/tag-categories', { kind: 'guest', name: 'dietary', show_on_slip: false })).json()).toEqual({
      success: true,
    });
    expect((await mine('guest')).find((c) => c.name === 'Dietary')).toMatchObject({
      scope: 'platform',
      is_default: true,
      show_on_slip: false,
      show_in_summary: true,
    });
    expect(await category('guest', 'Dietary', first)).toMatchObject({
      allow_guest_select: true,
      show_on_slip: false,
      show_in_summary: true,
    });

    // The first venue sets one flag of its own; the account then changes another, which still reaches it.
    expect((await first.patch('/tag-categories', { kind: 'guest', name: 'Dietary', show_in_summary: false })).statusCode).toBe(200);
    expect((await my.patch('/my/tag-categories', { kind: 'guest', name: 'Dietary', allow_guest_select: false })).statusCode).toBe(200);
    expect(await category('guest', 'Dietary', first)).toMatchObject({
      allow_guest_select: false,
      show_on_slip: false,
      show_in_summary: false,
    });
    expect(await category('guest', 'Dietary', second)).toMatchObject({
      allow_guest_select: false,
      show_on_slip: false,
      show_in_summary: true,
    });
    // The venue's setting wins over the account's.
    expect((await first.patch('/tag-categories', { kind: 'guest', name: 'Dietary', show_on_slip: true })).statusCode).toBe(200);
    expect(
      (await my.patch('/my/tag-categories', { kind: 'guest', name: 'Dietary', show_on_slip: false, show_in_summary: true })).statusCode,
    ).toBe(200);
    expect(await category('guest', 'Dietary', first)).toMatchObject({ show_on_slip: true, show_in_summary: false });

    // Account categories are tuned in place.
    await my.post('/my/tag-categories', { kind: 'reservation', name: 'Extras', allow_guest_select: true });
    expect((await my.patch('/my/tag-categories', { kind: 'reservation', name: 'extras', show_on_slip: true })).statusCode).toBe(200);
    expect(await category('reservation', 'Extras', second)).toMatchObject({
      scope: 'account',
      allow_guest_select: true,
      show_on_slip: true,
      show_in_summary: false,
    });
    expect((await mine('reservation')).filter((c) => c.name === 'Extras')).toHaveLength(1);
  });

  it('settles concurrent creates of one category in different cases: one 200, the rest 409', async () => {
    const { my, mine } = await account();
    const names = ['Allergens', 'ALLERGENS', 'allergens', 'AllerGens', 'aLLergens', 'Allergens '];
    const results = await Promise.all(names.map((name) => my.post('/my/tag-categories', { kind: 'guest', name })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await mine('guest')).filter((c) => same(c.name, 'allergens'))).toHaveLength(1);
  });

  it.each([
    ['POST /my/tags', 'post', '/my/tags', { kind: 'guest', category: 'VIP' }, /label/],
    ['POST /my/tags', 'post', '/my/tags', { kind: 'staff', category: 'VIP', label: 'x' }, /kind/],
    ['POST /my/tags', 'post', '/my/tags', { kind: 'guest', category: 'VIP', label: '  ' }, /label/],
    ['POST /my/tags', 'post', '/my/tags', { kind: 'guest', category: 'Nowhere', label: 'x' }, /category/],
    ['POST /my/tags', 'post', '/my/tags', { kind: 'reservation', category: 'VIP', label: 'x' }, /category/],
    ['POST /my/tag-categories', 'post', '/my/tag-categories', { kind: 'guest', name: ' ' }, /name/],
    ['POST /my/tag-categories', 'post', '/my/tag-categories', { name: 'x' }, /kind/],
    ['POST /my/tag-categories', 'post', '/my/tag-categories', { kind: 'guest', name: 'x', show_on_slip: 'yes' }, /show_on_slip/],
    ['PATCH /my/tag-categories', 'patch', '/my/tag-categories', { kind: 'guest', name: 'VIP' }, /at least one/],
    [
      'PATCH /my/tag-categories',
      'patch',
      '/my/tag-categories',
      { kind: 'guest', name: 'VIP', allow_guest_select: 2 },
      /allow_guest_select/,
    ],
  ] as const)('%s %j → 400', async (_route, method, path, body, message) => {
    const { my } = await account();
    const res = await my[method](path, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('DELETE /my/tags needs kind, category and label (400); PATCH of an unknown category is 404; GET refuses an unknown kind (400)', async () => {
    const { my } = await account();
    expect((await my.del('/my/tags?kind=guest&category=VIP')).statusCode).toBe(400);
    expect((await my.patch('/my/tag-categories', { kind: 'guest', name: 'Nope', show_on_slip: true })).statusCode).toBe(404);
    expect((await my.get('?kind=staff')).statusCode).toBe(400);
  });

  it('answers 401 and 403: guests, roles without catalogue:write, and roles limited to some venues', async () => {
    const { owner, first, my, mine } = await account();
    const body = { kind: 'guest', category: 'VIP', label: 'Denied' };
    expect((await t.app.inject({ method: 'POST', url: '/api/my/tags', payload: body })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/api/my/tag-categories', payload: { kind: 'guest', name: 'VIP', show_on_slip: true } }))
        .statusCode,
    ).toBe(401);
    const guest = await createGuest(t);
    expect((await my.post('/my/tags', body, guest.headers)).statusCode).toBe(403);
    const reader = await createStaff(t, owner, { catalogue: 'read' });
    expect((await my.post('/my/tags', body, reader.headers)).statusCode).toBe(403);
    expect((await my.post('/my/tag-categories', { kind: 'guest', name: 'Denied' }, reader.headers)).statusCode).toBe(403);
    expect((await my.patch('/my/tag-categories', { kind: 'guest', name: 'VIP', show_on_slip: false }, reader.headers)).statusCode).toBe(
      403,
    );
    expect((await my.del(`/my${tagQuery('guest', 'VIP', 'Celebrity')}`, reader.headers)).statusCode).toBe(403);
    const scoped = await createStaff(t, owner, { catalogue: 'write' }, [await insertVenue(t, owner.operatorId)]);
    const scopedRes = await my.post('/my/tags', body, scoped.headers);
    expect(scopedRes.statusCode).toBe(403);
    expect(scopedRes.json().error).toMatch(/every venue/);
    expect((await my.post('/my/tag-categories', { kind: 'guest', name: 'Denied' }, scoped.headers)).statusCode).toBe(403);
    // Reading is fine for a venue-limited role.
    expect((await t.app.inject({ url: '/api/my/tag-catalogue', headers: scoped.headers })).statusCode).toBe(200);
    expect((await mine('guest')).find((c) => c.name === 'VIP')?.tags.map((tag) => tag.label)).not.toContain('Denied');
    expect((await mine('guest')).find((c) => c.name === 'Denied')).toBeUndefined();

    const writer = await createStaff(t, owner, { catalogue: 'write' });
    expect((await my.post('/my/tags', { ...body, label: 'Allowed' }, writer.headers)).statusCode).toBe(200);
    expect((await category('guest', 'VIP', first))?.tags.map((tag) => tag.label)).toContain('Allowed');
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths['/api/my/tags'])).toEqual(expect.arrayContaining(['post', 'delete']));
    expect(Object.keys(doc.paths['/api/my/tag-categories'])).toEqual(expect.arrayContaining(['post', 'patch']));
    expect(doc.paths['/api/my/tags'].post.description).toMatch(/every venue/);
  });
});

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

// Copy-from of the catalogue scopes: bundles (with items), promo codes, client and reservation tags.
import { describe, expect, it } from 'vitest';
import { insertAccessRule, readRow } from '../../../test/helpers/rows.js';
import { redeemPromoCode } from '../catalogue/index.js';
import { byName, copied, created, data, dst, source, src, t, target, useTwoVenues } from './copy-from.test-support.js';

useTwoVenues();

describe('copy-from: bundles', () => {
  it('overwrites the target’s bundles with copies (items included) and re-points the target’s references by name', async () => {
    const champagne = await created(src.post('/bundles', { name: 'Champagne', applicable_profiles: ['tables'] }));
    await created(
      src.post(`/bundles/${champagne}/items`, { name: 'Bottle', price: 9000, max_qty: 2, image_url: 'http://maitred.test/uploads/a.png' }),
    );
    await created(src.post(`/bundles/${champagne}/items`, { name: 'Magnum', price: 16000 }));
    const snacks = await created(src.post('/bundles', { name: 'Snacks' }));
    await created(src.post(`/bundles/${snacks}/items`, { name: 'Olives', price: 450 }));

    const oldChampagne = await created(dst.post('/bundles', { name: 'Champagne' }));
    const oldOnly = await created(dst.post('/bundles', { name: 'Old only' }));
    await created(dst.post(`/bundles/${oldOnly}/items`, { name: 'Old item', price: 1 }));
    const rule = await insertAccessRule(t, target, { bundle_ids: JSON.stringify([oldChampagne, oldOnly]) });
    const profile = await created(dst.post('/table-profiles', { name: 'Dinner', bundle_ids: [oldOnly, oldChampagne] }));
    const sourceRule = await insertAccessRule(t, source, { bundle_ids: JSON.stringify([champagne]) });

    expect(await copied('bundles')).toBe(5);

    const bundles = await data(dst, '/bundles');
    expect(bundles.map((b) => b.name).sort()).toEqual(['Champagne', 'Snacks']);
    const newChampagne = byName(bundles, 'Champagne')!;
    expect(newChampagne.id).not.toBe(champagne);
    expect(newChampagne.id).not.toBe(oldChampagne);
    expect(newChampagne.applicable_profiles).toEqual(['tables']);
    expect(newChampagne.items.map((i: any) => [i.name, i.price, i.max_qty, i.image_url, i.bundle_id]).sort()).toEqual([
      ['Bottle', 9000, 2, 'http://maitred.test/uploads/a.png', newChampagne.id],
      ['Magnum', 16000, null, null, newChampagne.id],
    ]);
    expect(byName(bundles, 'Snacks')!.items.map((i: any) => i.name)).toEqual(['Olives']);

    expect(JSON.parse((await readRow(t, 'access_rules', rule))!.bundle_ids)).toEqual([newChampagne.id]);
    expect((await data(dst, '/table-profiles')).find((p) => p.id === profile)?.bundle_ids).toEqual([newChampagne.id]);
    expect((await t.db.kysely.selectFrom('bundle_items').select('id').where('venue_id', '=', target).execute()).length).toBe(3);

    // The source is untouched.
    expect((await data(src, '/bundles')).map((b) => b.id).sort()).toEqual([champagne, snacks].sort());
    expect(JSON.parse((await readRow(t, 'access_rules', sourceRule))!.bundle_ids)).toEqual([champagne]);
  });

  it('copying an empty scope empties the target', async () => {
    const old = await created(dst.post('/bundles', { name: 'Old' }));
    const rule = await insertAccessRule(t, target, { bundle_ids: JSON.stringify([old]) });
    expect(await copied('bundles')).toBe(0);
    expect(await data(dst, '/bundles')).toEqual([]);
    expect(JSON.parse((await readRow(t, 'access_rules', rule))!.bundle_ids)).toEqual([]);
  });
});

describe('copy-from: promo-codes', () => {
  it('copies codes with their counters reset and re-points event profiles by code', async () => {
    const vip = await created(
      src.post('/promo-codes', { name: 'VIP', code: 'VIP10', discount_pct: 10, max_uses: 50, expires_at: '2026-12-31T23:00:00Z' }),
    );
    await created(src.post('/promo-codes', { name: 'Summer', code: 'SUMMER', discount_pct: 20 }));
    await redeemPromoCode(t.db, source, 'VIP10', t.clock.now());
    await redeemPromoCode(t.db, source, 'VIP10', t.clock.now());
    const oldVip = await created(dst.post('/promo-codes', { name: 'Old VIP', code: 'VIP10', discount_pct: 5 }));
    const oldOnly = await created(dst.post('/promo-codes', { name: 'Old', code: 'OLD', discount_pct: 5 }));
    const profile = await created(dst.post('/event-profiles', { name: 'Gig', promo_code_ids: [oldVip, oldOnly] }));

    expect(await copied('promo-codes')).toBe(2);

    const codes = await data(dst, '/promo-codes');
    expect(codes.map((c) => c.code).sort()).toEqual(['SUMMER', 'VIP10']);
    const newVip = codes.find((c) => c.code === 'VIP10')!;
    expect(newVip).toMatchObject({ name: 'VIP', discount_pct: 10, max_uses: 50, uses: 0, expires_at: '2026-12-31T23:00:00.000Z' });
    expect((await data(src, '/promo-codes')).find((c) => c.id === vip)?.uses).toBe(2);
    expect((await data(dst, '/event-profiles')).find((p) => p.id === profile)?.promo_code_ids).toEqual([newVip.id]);
  });
});

describe('copy-from: tags', () => {
  it('client-tags copies the guest kind’s custom categories, tags and flags, and leaves reservation tags alone', async () => {
    await src.post('/tag-categories', { kind: 'guest', name: 'Loyalty', show_on_slip: true });
    await src.post('/tags', { kind: 'guest', category: 'Loyalty', label: 'Gold' });
    await src.post('/tags', { kind: 'guest', category: 'VIP', label: 'Footballer' });
    await src.patch('/tag-categories', { kind: 'guest', name: 'Dietary', show_on_slip: false });
    await src.post('/tags', { kind: 'reservation', category: 'Occasion', label: 'Source only' });
    await dst.post('/tags', { kind: 'guest', category: 'Behaviour', label: 'Old custom' });
    await dst.post('/tags', { kind: 'reservation', category: 'Occasion', label: 'Target keeps' });

    expect(await copied('client-tags')).toBe(4); // Loyalty, the Dietary flags, Gold, Footballer

    const guest = (await dst.get('/tag-catalogue?kind=guest')).json().data as any[];
    expect(byName(guest, 'Loyalty')).toMatchObject({
      is_default: false,
      scope: 'venue',
      show_on_slip: true,
      tags: [{ label: 'Gold', is_default: false, scope: 'venue' }],
    });
    expect(byName(guest, 'VIP')!.tags).toContainEqual({ label: 'Footballer', is_default: false, scope: 'venue' });
    expect(byName(guest, 'Dietary')).toMatchObject({ is_default: true, show_on_slip: false });
    expect(byName(guest, 'Behaviour')!.tags.map((tag: any) => tag.label)).not.toContain('Old custom');
    const reservation = (await dst.get('/tag-catalogue?kind=reservation')).json().data as any[];
    const occasion = byName(reservation, 'Occasion')!.tags.map((tag: any) => tag.label);
    expect(occasion).toContain('Target keeps');
    expect(occasion).not.toContain('Source only');
  });

  it('reservation-tags copies the reservation kind only', async () => {
    await src.post('/tag-categories', { kind: 'reservation', name: 'Packages' });
    await src.post('/tags', { kind: 'reservation', category: 'Packages', label: 'Brunch' });
    await src.post('/tags', { kind: 'guest', category: 'VIP', label: 'Source guest tag' });
    await dst.post('/tags', { kind: 'reservation', category: 'Seating', label: 'Old seat' });

    expect(await copied('reservation-tags')).toBe(2);
    const reservation = (await dst.get('/tag-catalogue?kind=reservation')).json().data as any[];
    expect(byName(reservation, 'Packages')!.tags).toEqual([{ label: 'Brunch', is_default: false, scope: 'venue' }]);
    expect(byName(reservation, 'Seating')!.tags.map((tag: any) => tag.label)).not.toContain('Old seat');
    const guest = (await dst.get('/tag-catalogue?kind=guest')).json().data as any[];
    expect(byName(guest, 'VIP')!.tags.map((tag: any) => tag.label)).not.toContain('Source guest tag');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  expectCreated,
  insertVenue,
  setupVenue,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';
import { withTransaction } from '../../db/transaction.js';
import { redeemPromoCode } from './promo-codes.service.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let api: VenueApi;

beforeAll(async () => {
  t = await createTestApp();
  ({ op, venueId, api } = await setupVenue(t));
});
afterAll(async () => t.close());

let n = 0;
const uniqueCode = (prefix = 'CODE') => `${prefix}${++n}`;

async function createPromo(body: object, a = api): Promise<string> {
  return expectCreated(await a.post('/promo-codes', body));
}

async function promo(id: string, a = api) {
  const res = await a.get('/promo-codes');
  expect(res.statusCode).toBe(200);
  return (res.json().data as Record<string, unknown>[]).find((p) => p.id === id);
}

describe('promo codes', () => {
  it('creates with the code trimmed and upper-cased, and reads back', async () => {
    const id = await createPromo({
      name: 'Summer',
      code: '  summer-25 ',
      discount_pct: 25,
      max_uses: 100,
      expires_at: '2026-09-01T00:00:00+01:00',
    });
    expect(await promo(id)).toEqual({
      id,
      name: 'Summer',
      code: 'SUMMER-25',
      discount_pct: 25,
      max_uses: 100,
      uses: 0,
      expires_at: '2026-08-31T23:00:00.000Z',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const bare = await createPromo({ name: 'Bare', code: uniqueCode(), discount_pct: 0 });
    expect(await promo(bare)).toMatchObject({ discount_pct: 0, max_uses: null, expires_at: null, uses: 0 });
    const full = await createPromo({ name: 'Free', code: uniqueCode(), discount_pct: 100, max_uses: null, expires_at: null });
    expect(await promo(full)).toMatchObject({ discount_pct: 100, max_uses: null, expires_at: null });
  });

  it('answers 409 for a duplicate code in the same venue, whatever its case, but allows it at another venue', async () => {
    await createPromo({ name: 'First', code: 'DUPE', discount_pct: 10 });
    const dupe = await api.post('/promo-codes', { name: 'Second', code: ' dupe', discount_pct: 20 });
    expect(dupe.statusCode).toBe(409);
    expect(dupe.json().error).toMatch(/DUPE/);
    const elsewhere = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    await createPromo({ name: 'Elsewhere', code: 'dupe', discount_pct: 10 }, elsewhere);
  });

  it('answers 409 to all but one of concurrent creates of the same code', async () => {
    const code = uniqueCode('RACE');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post('/promo-codes', { name: `Racer ${i}`, code, discount_pct: 5 })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const codes = ((await api.get('/promo-codes')).json().data as { code: string }[]).filter((p) => p.code === code);
    expect(codes).toHaveLength(1);
  });

  it('updates only the fields sent, null clears, and a code change is checked for duplicates', async () => {
    const id = await createPromo({ name: 'Before', code: uniqueCode(), discount_pct: 10, max_uses: 5, expires_at: '2026-12-31T23:59:00Z' });
    const taken = uniqueCode();
    await createPromo({ name: 'Taken', code: taken, discount_pct: 10 });
    expect((await api.put(`/promo-codes/${id}`, { name: 'After', code: 'renamed', discount_pct: 15 })).json()).toEqual({ success: true });
    expect(await promo(id)).toMatchObject({
      name: 'After',
      code: 'RENAMED',
      discount_pct: 15,
      max_uses: 5,
      expires_at: '2026-12-31T23:59:00.000Z',
    });
    expect((await api.put(`/promo-codes/${id}`, { max_uses: null, expires_at: null })).statusCode).toBe(200);
    expect(await promo(id)).toMatchObject({ max_uses: null, expires_at: null });
    expect((await api.put(`/promo-codes/${id}`, { code: 'Renamed' })).statusCode).toBe(200);
    const clash = await api.put(`/promo-codes/${id}`, { code: taken.toLowerCase() });
    expect(clash.statusCode).toBe(409);
    expect((await promo(id))?.code).toBe('RENAMED');
  });

  it('deletes a code and takes it off event profiles', async () => {
    const id = await createPromo({ name: 'Going', code: uniqueCode(), discount_pct: 10 });
    const keep = await createPromo({ name: 'Staying', code: uniqueCode(), discount_pct: 10 });
    const profile = (await api.post('/event-profiles', { name: 'Gig', promo_code_ids: [id, keep] })).json().id;
    expect((await api.del(`/promo-codes/${id}`)).json()).toEqual({ success: true });
    expect(await promo(id)).toBeUndefined();
    const profiles = (await api.get('/event-profiles')).json().data as { id: string; promo_code_ids: string[] }[];
    expect(profiles.find((p) => p.id === profile)?.promo_code_ids).toEqual([keep]);
    expect((await api.del(`/promo-codes/${id}`)).statusCode).toBe(404);
  });

  it.each([
    [{ code: 'X', discount_pct: 1 }, /name/],
    [{ name: 'x', discount_pct: 1 }, /code/],
    [{ name: 'x', code: 'X' }, /discount_pct/],
    [{ name: 'x', code: '   ', discount_pct: 1 }, /code/],
    [{ name: 'x', code: 'HAS SPACE', discount_pct: 1 }, /code/],
    [{ name: 'x', code: 'X', discount_pct: 101 }, /discount_pct/],
    [{ name: 'x', code: 'X', discount_pct: -1 }, /discount_pct/],
    [{ name: 'x', code: 'X', discount_pct: 1, max_uses: 0 }, /max_uses/],
    [{ name: 'x', code: 'X', discount_pct: 1, max_uses: 2.5 }, /max_uses/],
    [{ name: 'x', code: 'X', discount_pct: 1, expires_at: 'next tuesday' }, /expires_at/],
    [{ name: 'x', code: 'X', discount_pct: 1, expires_at: '2026-12-31' }, /expires_at/],
    [{ name: 'x', code: 'X', discount_pct: 1, expires_at: '2026-02-30T10:00:00Z' }, /expires_at/],
    [{ name: ' ', code: 'X', discount_pct: 1 }, /name/],
  ])('create %j → 400', async (body, message) => {
    const res = await api.post('/promo-codes', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('refuses invalid updates', async () => {
    const id = await createPromo({ name: 'Valid', code: uniqueCode(), discount_pct: 10 });
    for (const body of [{ discount_pct: 150 }, { code: '' }, { expires_at: 'soon' }, { name: '' }]) {
      expect((await api.put(`/promo-codes/${id}`, body)).statusCode).toBe(400);
    }
    expect(await promo(id)).toMatchObject({ name: 'Valid', discount_pct: 10, expires_at: null });
  });
});

describe('redemption', () => {
  it('counts redemptions up to max_uses, then refuses; reset zeroes the counter', async () => {
    const code = uniqueCode('USE');
    const id = await createPromo({ name: 'Twice', code, discount_pct: 10, max_uses: 2 });
    const now = t.clock.now();
    expect(await redeemPromoCode(t.db, venueId, code.toLowerCase(), now)).toMatchObject({
      ok: true,
      promo: { id, uses: 1, discount_pct: 10 },
    });
    expect(await redeemPromoCode(t.db.kysely, venueId, ` ${code} `, now)).toMatchObject({ ok: true, promo: { uses: 2 } });
    expect(await redeemPromoCode(t.db, venueId, code, now)).toEqual({ ok: false, reason: 'exhausted' });
    expect((await promo(id))?.uses).toBe(2);

    expect((await api.post(`/promo-codes/${id}/reset`)).json()).toEqual({ success: true });
    expect((await promo(id))?.uses).toBe(0);
    expect(await redeemPromoCode(t.db, venueId, code, now)).toMatchObject({ ok: true, promo: { uses: 1 } });
  });

  it('refuses unknown codes, codes of another venue, and expired codes (expiry is exclusive)', async () => {
    const code = uniqueCode('EXP');
    await createPromo({ name: 'Expiring', code, discount_pct: 10, expires_at: '2026-07-01T12:00:00Z' });
    expect(await redeemPromoCode(t.db, venueId, 'NOPE', t.clock.now())).toEqual({ ok: false, reason: 'not_found' });
    expect(await redeemPromoCode(t.db, await insertVenue(t, op.operatorId), code, t.clock.now())).toEqual({
      ok: false,
      reason: 'not_found',
    });
    expect(await redeemPromoCode(t.db, venueId, code, new Date('2026-07-01T11:59:59.999Z'))).toMatchObject({ ok: true });
    expect(await redeemPromoCode(t.db, venueId, code, new Date('2026-07-01T12:00:00.000Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('never exceeds max_uses under 20 concurrent redemptions', async () => {
    const code = uniqueCode('RUSH');
    const id = await createPromo({ name: 'Rush', code, discount_pct: 50, max_uses: 5 });
    const now = t.clock.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => redeemPromoCode(t.db, venueId, code, now)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'exhausted')).toBe(true);
    expect(results.flatMap((r) => (r.ok ? [r.promo.uses] : [])).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect((await promo(id))?.uses).toBe(5);
  });

  it('never exceeds max_uses under 20 concurrent redemptions each inside its own transaction, as a booking redeems', async () => {
    const code = uniqueCode('TXN');
    const id = await createPromo({ name: 'In transactions', code, discount_pct: 50, max_uses: 7 });
    const now = t.clock.now();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => withTransaction(t.db, (trx) => redeemPromoCode(trx, venueId, code, now))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(7);
    expect(results.flatMap((r) => (r.ok ? [r.promo.uses] : [])).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await promo(id))?.uses).toBe(7);
  });

  it('refuses once max_uses is lowered below the redemptions so far, and counts on when it is cleared', async () => {
    const code = uniqueCode('LOWER');
    const id = await createPromo({ name: 'Lowered', code, discount_pct: 10, max_uses: 5 });
    const now = t.clock.now();
    for (let i = 0; i < 3; i++) expect((await redeemPromoCode(t.db, venueId, code, now)).ok).toBe(true);
    expect((await api.put(`/promo-codes/${id}`, { max_uses: 2 })).statusCode).toBe(200);
    expect(await redeemPromoCode(t.db, venueId, code, now)).toEqual({ ok: false, reason: 'exhausted' });
    expect((await promo(id))?.uses).toBe(3);
    expect((await api.put(`/promo-codes/${id}`, { max_uses: null })).statusCode).toBe(200);
    expect(await redeemPromoCode(t.db, venueId, code, now)).toMatchObject({ ok: true, promo: { uses: 4 } });
  });
});

describe('promo code access control', () => {
  it('answers 401, 403 and 404', async () => {
    expect((await t.app.inject({ url: `/api/my-venues/${venueId}/promo-codes` })).statusCode).toBe(401);
    const reader = await createStaff(t, op, { catalogue: 'read' });
    const asReader = venueApi(t, reader.headers, venueId);
    expect((await asReader.get('/promo-codes')).statusCode).toBe(200);
    expect((await asReader.post('/promo-codes', { name: 'x', code: uniqueCode(), discount_pct: 1 })).statusCode).toBe(403);
    const mine = await createPromo({ name: 'Mine', code: uniqueCode(), discount_pct: 1 });
    expect((await asReader.post(`/promo-codes/${mine}/reset`)).statusCode).toBe(403);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    expect((await venueApi(t, op.headers, theirVenue).get('/promo-codes')).statusCode).toBe(404);
    const theirs = await createPromo({ name: 'Theirs', code: uniqueCode(), discount_pct: 1 }, venueApi(t, stranger.headers, theirVenue));
    expect((await api.put(`/promo-codes/${theirs}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.del(`/promo-codes/${theirs}`)).statusCode).toBe(404);
    expect((await api.post(`/promo-codes/${theirs}/reset`)).statusCode).toBe(404);
  });
});

/**
 * Look-up and redemption over HTTP on both engines: codes typed grouped or plain, every reason
 * (not_found, wrong_venue with sister venues redeemable, refunded, already_redeemed, expired,
 * insufficient_balance), partial redemption with its history, races (20 concurrent redemptions of one
 * code, concurrent partial ones never below zero), and the look-up rate limit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createStaff,
  createTestApp,
  insertVenue,
  login,
  setupVenue,
  TEST_NOW,
  venueApi,
  type TestApp,
} from '../../../test/helpers/app.js';
import { issueComp, linkSisters } from './vouchers.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'voucher_lookup=10000/60,voucher_redeem=10000/60' });
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

describe('look-up', () => {
  it('finds a voucher by its code grouped or plain, in any case, and says it is redeemable', async () => {
    const { venueId, api } = await setupVenue(t, { name: 'The Owl' });
    const voucher = await issueComp(api, { amount_pence: 3000 });
    for (const typed of [
      voucher.code,
      voucher.display_code,
      voucher.code.toLowerCase(),
      ` ${voucher.display_code.replaceAll('-', ' ')} `,
    ]) {
      const res = await api.get(`/vouchers/lookup?code=${encodeURIComponent(typed)}`);
      expect(res.statusCode, typed).toBe(200);
      expect(res.json()).toEqual({
        found: true,
        voucher: expect.objectContaining({
          id: voucher.id,
          code: voucher.code,
          amount_pence: 3000,
          remaining_pence: 3000,
          status: 'active',
          venue_id: venueId,
          venue_name: 'The Owl',
          redemptions: [],
        }),
        redeemable: true,
        reason: 'ok',
      });
    }
  });

  it('answers not_found for unknown and impossible codes, and 400 without a code', async () => {
    const { api } = await setupVenue(t);
    const none = { found: false, voucher: null, redeemable: false, reason: 'not_found' };
    for (const code of ['ABCD-EFGH-JKLM', 'ABCD-EFGH-JKL0', 'short', '!!!!']) {
      expect((await api.get(`/vouchers/lookup?code=${encodeURIComponent(code)}`)).json()).toEqual(none);
    }
    expect((await api.get('/vouchers/lookup')).statusCode).toBe(400);
    expect((await api.get(`/vouchers/lookup?code=${'A'.repeat(41)}`)).statusCode).toBe(400);
  });
});

describe('redemption', () => {
  it('redeems once, keeping the note and who redeemed it; a second time is already_redeemed', async () => {
    const { op, api } = await setupVenue(t);
    const voucher = await issueComp(api, { amount_pence: 2500 });
    const res = await api.post('/vouchers/redeem', { code: voucher.display_code.toLowerCase(), note: ' Table 4 ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      reason: 'ok',
      voucher: { id: voucher.id, code: voucher.code, amount_pence: 2500, status: 'redeemed', remaining_pence: 0, redeemed_pence: 2500 },
    });
    const again = (await api.post('/vouchers/redeem', { code: voucher.code })).json();
    expect(again).toMatchObject({
      success: false,
      reason: 'already_redeemed',
      voucher: { id: voucher.id, status: 'redeemed', redeemed_pence: 0 },
    });

    const lookup = (await api.get(`/vouchers/lookup?code=${voucher.code}`)).json();
    expect(lookup).toMatchObject({ found: true, redeemable: false, reason: 'already_redeemed' });
    expect(lookup.voucher.redemptions).toEqual([
      {
        amount_pence: 2500,
        note: 'Table 4',
        venue_id: expect.any(String),
        redeemed_by: { id: op.userId, name: 'Test Operator Owner' },
        redeemed_at: TEST_NOW,
      },
    ]);
  });

  it('answers not_found (not an HTTP error) for a code that is nobody’s or cannot exist', async () => {
    const { api } = await setupVenue(t);
    for (const code of ['ABCD-EFGH-JKLM', 'nope']) {
      const res = await api.post('/vouchers/redeem', { code });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: false, reason: 'not_found', voucher: null });
    }
    expect((await api.post('/vouchers/redeem', {})).statusCode).toBe(400);
    expect((await api.post('/vouchers/redeem', { code: 'ABCD-EFGH-JKLM', amount_pence: 0 })).statusCode).toBe(400);
    expect((await api.post('/vouchers/redeem', { code: 'ABCD-EFGH-JKLM', note: 'x'.repeat(1001) })).statusCode).toBe(400);
  });

  it('takes a sister venue’s voucher, and answers wrong_venue for another venue’s of the account', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const sisterId = await insertVenue(t, op.operatorId, { name: 'Sister' });
    const otherId = await insertVenue(t, op.operatorId, { name: 'Other' });
    await linkSisters(t, op.headers, venueId, sisterId);
    const fromSister = await issueComp(venueApi(t, op.headers, sisterId));
    const fromOther = await issueComp(venueApi(t, op.headers, otherId));

    expect((await api.get(`/vouchers/lookup?code=${fromOther.code}`)).json()).toMatchObject({
      found: true,
      redeemable: false,
      reason: 'wrong_venue',
      voucher: { venue_name: 'Other' },
    });
    expect((await api.post('/vouchers/redeem', { code: fromOther.code })).json()).toMatchObject({ success: false, reason: 'wrong_venue' });
    expect((await api.get(`/vouchers/lookup?code=${fromSister.code}`)).json()).toMatchObject({ redeemable: true, reason: 'ok' });
    const redeemed = (await api.post('/vouchers/redeem', { code: fromSister.code })).json();
    expect(redeemed).toMatchObject({ success: true, reason: 'ok', voucher: { status: 'redeemed' } });
    const history = (await api.get(`/vouchers/lookup?code=${fromSister.code}`)).json().voucher;
    expect(history).toMatchObject({ venue_id: sisterId, venue_name: 'Sister', redemptions: [{ venue_id: venueId }] });
    // Unlinked again, the sister's vouchers are another venue's.
    const unlink = await t.app.inject({ method: 'DELETE', url: `/api/my-venues/${venueId}/sisters/${sisterId}`, headers: op.headers });
    expect(unlink.statusCode).toBe(200);
    const later = await issueComp(venueApi(t, op.headers, sisterId));
    expect((await api.post('/vouchers/redeem', { code: later.code })).json()).toMatchObject({ reason: 'wrong_venue' });
  });

  it('answers expired from the day after expires_at in the venue’s zone, and redeems on the last day', async () => {
    const setup = await setupVenue(t, { timezone: 'America/New_York' });
    expect((await setup.api.put('/voucher-settings', { expiration_months: 1 })).statusCode).toBe(200);
    const voucher = await issueComp(setup.api);
    expect(voucher.expires_at).toBe('2026-07-15');
    const other = await issueComp(setup.api);
    // 23:59 on 15 July in New York (EDT) is 03:59 UTC on 16 July: still valid.
    t.clock.set('2026-07-16T03:59:00.000Z');
    // A month on, the session has lapsed: sign in again.
    const api = venueApi(t, bearer(await login(t, setup.op.email)), setup.venueId);
    expect((await api.post('/vouchers/redeem', { code: voucher.code })).json()).toMatchObject({ success: true });
    t.clock.set('2026-07-16T04:00:00.000Z');
    expect((await api.get(`/vouchers/lookup?code=${other.code}`)).json()).toMatchObject({
      redeemable: false,
      reason: 'expired',
      voucher: { status: 'expired', expires_at: '2026-07-15' },
    });
    expect((await api.post('/vouchers/redeem', { code: other.code })).json()).toMatchObject({
      success: false,
      reason: 'expired',
      voucher: { status: 'expired', remaining_pence: 5000 },
    });
    expect(
      (await api.get('/vouchers'))
        .json()
        .data.map((v: { status: string }) => v.status)
        .sort(),
    ).toEqual(['expired', 'redeemed']);
  });

  it('is for staff with vouchers write: a reader may look up but not redeem', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const voucher = await issueComp(api);
    const reader = venueApi(t, (await createStaff(t, op, { vouchers: 'read' })).headers, venueId);
    expect((await reader.get(`/vouchers/lookup?code=${voucher.code}`)).json()).toMatchObject({ reason: 'ok' });
    expect((await reader.post('/vouchers/redeem', { code: voucher.code })).statusCode).toBe(403);
    const staff = await createStaff(t, op, { vouchers: 'write' });
    const redeemed = await venueApi(t, staff.headers, venueId).post('/vouchers/redeem', { code: voucher.code, note: 'Bar tab' });
    expect(redeemed.json()).toMatchObject({ success: true });
    const [entry] = (await api.get(`/vouchers/lookup?code=${voucher.code}`)).json().voucher.redemptions;
    expect(entry).toMatchObject({ note: 'Bar tab', redeemed_by: { id: staff.userId, name: 'Staff Member' } });
  });

  it('gives exactly one success to 20 concurrent redemptions of one code', async () => {
    const { api } = await setupVenue(t);
    const voucher = await issueComp(api, { amount_pence: 5000 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post('/vouchers/redeem', { code: voucher.code, note: `try ${i}` })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const bodies = answers.map((a) => a.json());
    expect(bodies.filter((b) => b.success)).toHaveLength(1);
    expect(bodies.filter((b) => !b.success).every((b) => b.reason === 'already_redeemed')).toBe(true);
    const lookup = (await api.get(`/vouchers/lookup?code=${voucher.code}`)).json().voucher;
    expect(lookup).toMatchObject({ status: 'redeemed', remaining_pence: 0 });
    expect(lookup.redemptions).toHaveLength(1);
  });
});

describe('partial redemption (extension)', () => {
  it('spends part of the balance, shows what is left, refuses more than is left, and redeems the rest', async () => {
    const { api } = await setupVenue(t);
    const voucher = await issueComp(api, { amount_pence: 5000 });
    const first = (await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 2000, note: 'Visit 1' })).json();
    expect(first).toEqual({
      success: true,
      reason: 'ok',
      voucher: { id: voucher.id, code: voucher.code, amount_pence: 5000, status: 'active', remaining_pence: 3000, redeemed_pence: 2000 },
    });
    expect((await api.get(`/vouchers/lookup?code=${voucher.code}`)).json()).toMatchObject({
      redeemable: true,
      reason: 'ok',
      voucher: { status: 'active', amount_pence: 5000, remaining_pence: 3000 },
    });
    expect((await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 3001 })).json()).toMatchObject({
      success: false,
      reason: 'insufficient_balance',
      voucher: { remaining_pence: 3000 },
    });
    t.clock.advance(3_600_000);
    const rest = (await api.post('/vouchers/redeem', { code: voucher.code, note: 'Visit 2' })).json();
    expect(rest).toMatchObject({ success: true, voucher: { status: 'redeemed', remaining_pence: 0, redeemed_pence: 3000 } });
    const history = (await api.get(`/vouchers/lookup?code=${voucher.code}`)).json().voucher.redemptions;
    expect(history.map((r: { amount_pence: number; note: string }) => [r.amount_pence, r.note])).toEqual([
      [2000, 'Visit 1'],
      [3000, 'Visit 2'],
    ]);
    expect((await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 1 })).json()).toMatchObject({
      reason: 'already_redeemed',
    });
  });

  it('never takes the balance below zero under concurrent partial redemptions', async () => {
    const { api } = await setupVenue(t);
    const voucher = await issueComp(api, { amount_pence: 5000 });
    // 20 × 300 asked of 5000: 16 fit (4800), 4 must be refused.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 300 })),
    );
    const bodies = answers.map((a) => a.json());
    expect(bodies.filter((b) => b.success)).toHaveLength(16);
    expect(bodies.filter((b) => !b.success).every((b) => b.reason === 'insufficient_balance')).toBe(true);
    const remaining = bodies.filter((b) => b.success).map((b) => b.voucher.remaining_pence);
    expect(new Set(remaining).size).toBe(16);
    expect(Math.min(...remaining)).toBe(200);

    // Mixed amounts racing a full redemption: what was spent never exceeds what there was.
    const second = await issueComp(api, { amount_pence: 1000 });
    const mixed = await Promise.all(
      [400, 400, 400, undefined, 300, 300].map((amount_pence) => api.post('/vouchers/redeem', { code: second.code, amount_pence })),
    );
    const spent = mixed.map((a) => a.json()).reduce((sum, b) => sum + (b.success ? b.voucher.redeemed_pence : 0), 0);
    const after = (await api.get(`/vouchers/lookup?code=${second.code}`)).json().voucher;
    expect(after.remaining_pence).toBeGreaterThanOrEqual(0);
    expect(spent + after.remaining_pence).toBe(1000);
    expect(after.redemptions.reduce((sum: number, r: { amount_pence: number }) => sum + r.amount_pence, 0)).toBe(spent);
  });
});

describe('the look-up rate limit', () => {
  it('allows 20 look-ups a minute per client address, then answers 429 with Retry-After', async () => {
    const limited = await createTestApp();
    try {
      const { api } = await setupVenue(limited);
      const voucher = await issueComp(api);
      for (let i = 0; i < 20; i++) expect((await api.get(`/vouchers/lookup?code=${voucher.code}`)).statusCode).toBe(200);
      const refused = await api.get(`/vouchers/lookup?code=${voucher.code}`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ request_id: expect.any(String), error: 'Too many requests. Please try again later.' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Counted before the query is read: a malformed look-up is refused the same way.
      expect((await api.get('/vouchers/lookup')).statusCode).toBe(429);
      // Another address has its own count; redemption is not limited by it.
      const other = await setupVenue(limited);
      const elsewhere = await limited.app.inject({
        url: `/api/my-venues/${other.venueId}/vouchers/lookup?code=${voucher.code}`,
        headers: other.op.headers,
        remoteAddress: '10.0.0.7',
      });
      expect(elsewhere.statusCode).toBe(200);
      expect((await api.post('/vouchers/redeem', { code: voucher.code })).json()).toMatchObject({ success: true });
    } finally {
      await limited.close();
    }
  });
});

describe('the redeem rate limit', () => {
  it('allows 20 redemptions a minute per client address, like look-ups, then answers 429 with Retry-After', async () => {
    const limited = await createTestApp();
    try {
      const { api } = await setupVenue(limited);
      const voucher = await issueComp(api, { amount_pence: 5000 });
      // Guessed codes: each attempt counts, found or not.
      for (let i = 0; i < 19; i++) {
        expect((await api.post('/vouchers/redeem', { code: `ABCD-EFGH-JK${String(i).padStart(2, '0')}` })).json()).toMatchObject({
          success: false,
          reason: 'not_found',
        });
      }
      expect((await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 100 })).json()).toMatchObject({ success: true });
      const refused = await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 100 });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ request_id: expect.any(String), error: 'Too many requests. Please try again later.' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Counted before the body is read: a malformed redemption is refused the same way, and spends nothing.
      expect((await api.post('/vouchers/redeem', {})).statusCode).toBe(429);
      expect((await api.get(`/vouchers/lookup?code=${voucher.code}`)).json().voucher.remaining_pence).toBe(4900);
      // Another address has its own count.
      const other = await setupVenue(limited);
      const elsewhere = await limited.app.inject({
        method: 'POST',
        url: `/api/my-venues/${other.venueId}/vouchers/redeem`,
        headers: other.op.headers,
        remoteAddress: '10.0.0.8',
        payload: { code: 'ABCD-EFGH-JKLM' },
      });
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

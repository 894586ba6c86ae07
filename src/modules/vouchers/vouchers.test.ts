/**
 * Issuing and listing vouchers over HTTP on both engines: comp vouchers and their codes, expiry by the
 * settings at the venue's local date, the list over the venue and its sister venues (newest first,
 * paged), validation, and access control across roles and accounts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  setupVenue,
  TEST_NOW,
  venueApi,
  type TestApp,
} from '../../../test/helpers/app.js';
import { VOUCHER_CODE_ALPHABET } from '../../domain/vouchers/index.js';
import { issueComp, linkSisters } from './vouchers.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

const CODE = new RegExp(`^[${VOUCHER_CODE_ALPHABET}]{12}$`);

describe('issuing a comp voucher', () => {
  it('answers the code (plain and grouped), stores the voucher active and lists it', async () => {
    const { op, venueId, api } = await setupVenue(t, { name: 'The Owl' });
    const res = await api.post('/vouchers', {
      amount_pence: 2500,
      mode: 'comp',
      recipient_name: ' Amelia ',
      message: 'Thanks!',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      id: expect.stringMatching(/^vch_/),
      code: expect.stringMatching(CODE),
      display_code: `${body.code.slice(0, 4)}-${body.code.slice(4, 8)}-${body.code.slice(8)}`,
      expires_at: '2027-06-15',
      emailed: false,
    });
    const list = await api.get('/vouchers');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      data: [
        {
          id: body.id,
          code: body.code,
          display_code: body.display_code,
          amount_pence: 2500,
          remaining_pence: 2500,
          status: 'active',
          expires_at: '2027-06-15',
          venue_id: venueId,
          venue_name: 'The Owl',
          mode: 'comp',
          recipient_name: 'Amelia',
          recipient_email: null,
          message: 'Thanks!',
          emailed: false,
          refunded_pence: 0,
          created_at: TEST_NOW,
        },
      ],
      total: 1,
      limit: 50,
      offset: 0,
      has_more: false,
    });
    const row = await t.db.kysely.selectFrom('vouchers').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ operator_id: op.operatorId, issued_by: op.userId, status: 'active', mode: 'comp' });
  });

  it('treats any mode but paid as comp, and gives every voucher its own code', async () => {
    const { api } = await setupVenue(t);
    const modes = [undefined, 'comp', 'gift', 'PAID', ''];
    const codes = new Set<string>();
    for (const mode of modes) {
      const voucher = await issueComp(api, { mode });
      codes.add(voucher.code);
    }
    expect(codes.size).toBe(modes.length);
    const data = (await api.get('/vouchers')).json().data as { mode: string }[];
    expect(data.map((v) => v.mode)).toEqual(modes.map(() => 'comp'));
  });

  it('expires after the settings’ months, on the venue’s local date', async () => {
    const { api } = await setupVenue(t, { timezone: 'Australia/Sydney' });
    expect((await api.put('/voucher-settings', { expiration_months: 3 })).statusCode).toBe(200);
    // 22:30 UTC on 15 June is 08:30 on 16 June in Sydney.
    t.clock.set('2026-06-15T22:30:00.000Z');
    expect((await issueComp(api)).expires_at).toBe('2026-09-16');
    expect((await api.put('/voucher-settings', { expiration_months: 1 })).statusCode).toBe(200);
    expect((await issueComp(api)).expires_at).toBe('2026-07-16');

    t.clock.set('2027-01-31T01:00:00.000Z');
    const london = (await setupVenue(t)).api;
    expect((await london.put('/voucher-settings', { expiration_months: 1 })).statusCode).toBe(200);
    expect((await issueComp(london)).expires_at).toBe('2027-02-28');
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['no amount', { mode: 'comp' }, /amount_pence/],
    ['an amount below 50 pence', { amount_pence: 49 }, /amount_pence/],
    ['an amount above £10,000', { amount_pence: 1_000_001 }, /amount_pence/],
    ['a fractional amount', { amount_pence: 100.5 }, /amount_pence/],
    ['a malformed recipient email', { amount_pence: 1000, recipient_email: 'not-an-email' }, /recipient_email/],
    ['a recipient email that would break a mail header', { amount_pence: 1000, recipient_email: 'a<b>@x.test' }, /recipient_email/],
    ['a message too long', { amount_pence: 1000, message: 'x'.repeat(1001) }, /message/],
    ['paid without payment_intent_id', { amount_pence: 1000, mode: 'paid' }, /payment_intent_id is required/],
  ])('refuses %s (400) and issues nothing', async (_label, body, message) => {
    const { api } = await setupVenue(t);
    const res = await api.post('/vouchers', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect((await api.get('/vouchers')).json().total).toBe(0);
  });
});

describe('the voucher list', () => {
  it('holds the venue’s and its sister venues’ vouchers, newest first, and no one else’s', async () => {
    const { op, venueId, api } = await setupVenue(t, { name: 'Main' });
    const sisterId = await insertVenue(t, op.operatorId, { name: 'Sister' });
    const otherId = await insertVenue(t, op.operatorId, { name: 'Unlinked' });
    await linkSisters(t, op.headers, venueId, sisterId);
    const sister = venueApi(t, op.headers, sisterId);
    const other = venueApi(t, op.headers, otherId);

    const first = await issueComp(api);
    t.clock.advance(60_000);
    const second = await issueComp(sister);
    t.clock.advance(60_000);
    await issueComp(other);
    t.clock.advance(60_000);
    const third = await issueComp(api);

    const mine = (await api.get('/vouchers')).json();
    expect(mine.total).toBe(3);
    expect(mine.data.map((v: { id: string; venue_name: string }) => [v.id, v.venue_name])).toEqual([
      [third.id, 'Main'],
      [second.id, 'Sister'],
      [first.id, 'Main'],
    ]);
    // Symmetric: the sister lists the main venue's vouchers too; the unlinked venue only its own.
    expect((await sister.get('/vouchers')).json().total).toBe(3);
    expect((await other.get('/vouchers')).json().total).toBe(1);

    const page = (await api.get('/vouchers?limit=2&offset=1')).json();
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 1, has_more: false });
    expect(page.data.map((v: { id: string }) => v.id)).toEqual([second.id, first.id]);
    expect((await api.get('/vouchers?limit=1')).json()).toMatchObject({ has_more: true, data: [{ id: third.id }] });
    expect((await api.get('/vouchers?limit=201')).statusCode).toBe(400);
  });

  it('shows a venue-scoped role only the sister venues in its scope', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const sisterId = await insertVenue(t, op.operatorId);
    await linkSisters(t, op.headers, venueId, sisterId);
    await issueComp(api);
    await issueComp(venueApi(t, op.headers, sisterId));
    const scoped = venueApi(t, (await createStaff(t, op, { vouchers: 'read' }, [venueId])).headers, venueId);
    expect((await scoped.get('/vouchers')).json().total).toBe(1);
    const wide = venueApi(t, (await createStaff(t, op, { vouchers: 'read' }, [venueId, sisterId])).headers, venueId);
    expect((await wide.get('/vouchers')).json().total).toBe(2);
  });
});

describe('access control', () => {
  it('answers 401 without a session, 403 without the permission, 404 for another account’s venue', async () => {
    const { op, venueId, api } = await setupVenue(t);
    await issueComp(api);
    for (const [method, path] of [
      ['GET', '/vouchers'],
      ['POST', '/vouchers'],
      ['POST', '/voucher-intent'],
      ['GET', '/vouchers/lookup?code=ABCD-EFGH-JKLM'],
      ['POST', '/vouchers/redeem'],
      ['POST', '/vouchers/vch_x/refund'],
    ] as const) {
      const res = await t.app.inject({ method, url: `/api/my-venues/${venueId}${path}`, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${path}`).toBe(401);
    }

    const reader = venueApi(t, (await createStaff(t, op, { vouchers: 'read' })).headers, venueId);
    expect((await reader.get('/vouchers')).statusCode).toBe(200);
    expect((await reader.get('/vouchers/lookup?code=ABCD-EFGH-JKLM')).statusCode).toBe(200);
    expect((await reader.post('/vouchers', { amount_pence: 1000 })).statusCode).toBe(403);
    expect((await reader.post('/voucher-intent', { amount_pence: 1000 })).statusCode).toBe(403);
    expect((await reader.post('/vouchers/redeem', { code: 'ABCD-EFGH-JKLM' })).statusCode).toBe(403);
    expect((await reader.post('/vouchers/vch_x/refund')).statusCode).toBe(403);
    const unrelated = venueApi(t, (await createStaff(t, op, { tables: 'write' })).headers, venueId);
    expect((await unrelated.get('/vouchers')).statusCode).toBe(403);
    const elsewhere = venueApi(
      t,
      (await createStaff(t, op, { vouchers: 'write' }, [await insertVenue(t, op.operatorId)])).headers,
      venueId,
    );
    expect((await elsewhere.get('/vouchers')).statusCode).toBe(404);

    const stranger = await createOperator(t, 'Stranger');
    const theirVenue = await insertVenue(t, stranger.operatorId);
    const theirs = venueApi(t, op.headers, theirVenue);
    expect((await theirs.get('/vouchers')).statusCode).toBe(404);
    expect((await theirs.post('/vouchers', { amount_pence: 1000 })).statusCode).toBe(404);
    expect((await theirs.post('/vouchers/redeem', { code: 'ABCD-EFGH-JKLM' })).statusCode).toBe(404);
    // Their vouchers stay theirs: not in our list, not found by code.
    const theirVoucher = await issueComp(venueApi(t, stranger.headers, theirVenue));
    expect((await api.get('/vouchers')).json().total).toBe(1);
    expect((await api.get(`/vouchers/lookup?code=${theirVoucher.code}`)).json()).toEqual({
      found: false,
      voucher: null,
      redeemable: false,
      reason: 'not_found',
    });
    expect((await api.post(`/vouchers/${theirVoucher.id}/refund`)).statusCode).toBe(404);
  });
});

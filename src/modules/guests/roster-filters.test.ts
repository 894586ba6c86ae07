/**
 * The roster list's filters (extension): `tag` (any case, operator-wide or at the caller's venues) and the
 * latest roster event (`seen_since`, `seen_before`), with offset and cursor paging, validation, role scope,
 * permissions and another operator's tags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, insertVenue, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { at, bookingOf, crm, guestUser } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const ids = (body: { data: { id: string }[] }) => body.data.map((g) => g.id);

describe('GET /api/my-guests with filters', () => {
  it('narrows by tag (any case; global or a venue’s) and by the latest roster event, with both pagings', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId, { name: 'Second' });
    const api = crm(t, op.headers);
    const ada = await guestUser(t, 'Ada Filter');
    await bookingOf(t, op.operatorId, venueId, ada, at('2026-05-01'));
    t.clock.advance(3_600_000);
    const middle = t.clock.now().toISOString();
    const bob = await guestUser(t, 'Bob Filter');
    await bookingOf(t, op.operatorId, other, bob, at('2026-05-02'));
    t.clock.advance(3_600_000);
    const late = t.clock.now().toISOString();
    const cy = await guestUser(t, 'Cy Filter');
    await bookingOf(t, op.operatorId, venueId, cy, at('2026-05-03'));

    const seen = async (query: string) => ids((await api.get(query)).json());
    expect(await seen(`?seen_since=${encodeURIComponent(middle)}`)).toEqual([cy, bob]);
    expect(await seen(`?seen_before=${encodeURIComponent(middle)}`)).toEqual([ada]);
    expect(await seen(`?seen_since=${encodeURIComponent(middle)}&seen_before=${encodeURIComponent(late)}`)).toEqual([bob]);
    // An instant without milliseconds, or with an offset, compares as the stored form does.
    expect(await seen(`?seen_since=${middle.slice(0, 19)}Z`)).toEqual([cy, bob]);
    const cursor = (await api.get(`?seen_since=${encodeURIComponent(middle)}&paging=cursor&limit=1`)).json();
    expect(ids(cursor)).toEqual([cy]);
    expect(await seen(`?seen_since=${encodeURIComponent(middle)}&limit=1&cursor=${cursor.cursor}`)).toEqual([bob]);

    t.clock.advance(3_600_000);
    expect((await api.put(`/${ada}/tags`, { tags: ['VIP'] })).statusCode).toBe(200);
    expect((await api.put(`/${bob}/tags`, { scope: 'venue', venue_id: other, tags: ['vip', 'Wine'] })).statusCode).toBe(200);
    expect((await api.get('?tag=VIP')).json()).toMatchObject({ total: 2 });
    expect((await seen('?tag=VIP')).sort()).toEqual([ada, bob].sort());
    expect(await seen('?tag=%20wine%20')).toEqual([bob]);
    expect((await api.get('?tag=vip&limit=1')).json()).toMatchObject({ total: 2, has_more: true });
    expect(await seen('?tag=nobody')).toEqual([]);
    const first = (await api.get('?tag=vip&paging=cursor&limit=1')).json();
    expect(first.has_more).toBe(true);
    const second = (await api.get(`?tag=vip&limit=1&cursor=${first.cursor}`)).json();
    expect([...ids(first), ...ids(second)].sort()).toEqual([ada, bob].sort());
    expect(second.has_more).toBe(false);
    expect(await seen(`?tag=wine&seen_since=${encodeURIComponent(middle)}`)).toEqual([bob]);
  });

  it('answers 400 for a blank tag or an instant that is not one', async () => {
    const { op } = await setupVenue(t);
    const api = crm(t, op.headers);
    expect((await api.get('?tag=%20%20')).statusCode).toBe(400);
    expect((await api.get('?tag=')).statusCode).toBe(400);
    expect((await api.get(`?tag=${'x'.repeat(51)}`)).statusCode).toBe(400);
    expect((await api.get('?seen_since=yesterday')).statusCode).toBe(400);
    expect((await api.get('?seen_before=2026-13-45T00:00:00Z')).statusCode).toBe(400);
  });

  it('counts a limited role’s venues’ tags only, never another operator’s, and needs guests:read', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId, { name: 'Elsewhere' });
    const dee = await guestUser(t, 'Dee Scoped');
    await bookingOf(t, op.operatorId, venueId, dee, at('2026-05-01'));
    await bookingOf(t, op.operatorId, other, dee, at('2026-05-01'));
    expect((await crm(t, op.headers).put(`/${dee}/tags`, { scope: 'venue', venue_id: other, tags: ['Elsewhere only'] })).statusCode).toBe(
      200,
    );
    expect(ids((await crm(t, op.headers).get('?tag=elsewhere%20only')).json())).toEqual([dee]);
    const limited = await createStaff(t, op, { guests: 'read' }, [venueId]);
    expect(ids((await crm(t, limited.headers).get('?tag=elsewhere%20only')).json())).toEqual([]);

    // Another operator tagging its own guest with the same word changes nothing here.
    const stranger = await setupVenue(t);
    const eve = await guestUser(t, 'Eve Stranger');
    await bookingOf(t, stranger.op.operatorId, stranger.venueId, eve, at('2026-05-01'));
    expect((await crm(t, stranger.op.headers).put(`/${eve}/tags`, { tags: ['Elsewhere only'] })).statusCode).toBe(200);
    expect(ids((await crm(t, op.headers).get('?tag=elsewhere%20only')).json())).toEqual([dee]);
    expect(ids((await crm(t, stranger.op.headers).get('?tag=elsewhere%20only')).json())).toEqual([eve]);

    const noGuests = await createStaff(t, op, { tables: 'read' });
    expect((await crm(t, noGuests.headers).get('?tag=vip')).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/my-guests?tag=vip' })).statusCode).toBe(401);
  });
});

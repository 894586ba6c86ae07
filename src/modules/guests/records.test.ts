/**
 * Tag replacement per scope (validation, read-back, activity, roster membership, concurrent writers) and
 * walk-in records (validation, synthesised email, permissions); roster membership is idempotent and
 * safe under concurrent joins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { countRows } from '../../../test/helpers/rows.js';
import { withTransaction } from '../../db/transaction.js';
import { joinRoster } from './index.js';
import { at, bookingOf, crm, guestUser } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('PUT /api/my-guests/:id/tags', () => {
  it('replaces the set at one scope, trimmed and deduplicated, and records the change', async () => {
    const { op, venueId } = await setupVenue(t, { name: 'Tag Venue' });
    const id = await guestUser(t, 'Tagged');
    await bookingOf(t, op.operatorId, venueId, id, at('2026-06-20'));
    const api = crm(t, op.headers);
    expect((await api.put(`/${id}/tags`, { tags: [' VIP ', 'vip', 'Wine  lover'] })).json()).toEqual({ success: true });
    expect((await api.put(`/${id}/tags`, { scope: 'venue', venue_id: venueId, tags: ['Terrace'] })).statusCode).toBe(200);
    expect((await api.get(`/${id}`)).json().tags).toEqual({
      global: ['VIP', 'Wine lover'],
      per_venue: [{ venue_id: venueId, venue_name: 'Tag Venue', tags: ['Terrace'] }],
    });
    expect((await api.put(`/${id}/tags`, { scope: 'global', tags: ['Regular'] })).statusCode).toBe(200);
    expect((await api.put(`/${id}/tags`, { scope: 'venue', venue_id: venueId, tags: [] })).statusCode).toBe(200);
    expect((await api.get(`/${id}`)).json().tags).toEqual({ global: ['Regular'], per_venue: [] });
    const feed = (await api.get(`/${id}/activity`)).json().data.filter((i: { type: string }) => i.type === 'tags_changed');
    expect(feed.map((i: { summary: string }) => i.summary)).toEqual([
      'Tags changed (venue): -Terrace',
      'Tags changed (global): +Regular, -VIP, -Wine lover',
      'Tags changed (venue): +Terrace',
      'Tags changed (global): +VIP, +Wine lover',
    ]);
    // The same set again changes nothing and records nothing.
    await api.put(`/${id}/tags`, { tags: ['Regular'] });
    expect(await countRows(t, 'guest_activity', { user_id: id, kind: 'tags_changed' })).toBe(4);
  });

  it('answers 400 for a blank tag, too many, a missing or stray venue_id; 404 for a venue not the caller’s', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await guestUser(t, 'Invalid Tags');
    await bookingOf(t, op.operatorId, venueId, id, at('2026-06-20'));
    const api = crm(t, op.headers);
    expect((await api.put(`/${id}/tags`, { tags: ['  '] })).statusCode).toBe(400);
    expect((await api.put(`/${id}/tags`, { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) })).statusCode).toBe(400);
    expect((await api.put(`/${id}/tags`, { tags: ['x'.repeat(51)] })).statusCode).toBe(400);
    expect((await api.put(`/${id}/tags`, { scope: 'venue', tags: ['a'] })).statusCode).toBe(400);
    expect((await api.put(`/${id}/tags`, { scope: 'global', venue_id: venueId, tags: ['a'] })).statusCode).toBe(400);
    expect((await api.put(`/${id}/tags`, { scope: 'room', tags: ['a'] })).statusCode).toBe(400);
    expect((await api.put(`/${id}/tags`, {})).statusCode).toBe(400);
    const stranger = await setupVenue(t);
    expect((await api.put(`/${id}/tags`, { scope: 'venue', venue_id: stranger.venueId, tags: ['a'] })).statusCode).toBe(404);
    const other = await insertVenue(t, op.operatorId);
    const limited = await createStaff(t, op, { guests: 'write' }, [venueId]);
    expect((await crm(t, limited.headers).put(`/${id}/tags`, { scope: 'venue', venue_id: other, tags: ['a'] })).statusCode).toBe(404);
    expect(await countRows(t, 'guest_tags', { user_id: id })).toBe(0);
  });

  it('a venue tag joins the guest to that venue', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId);
    const id = await guestUser(t, 'Joins By Tag');
    await bookingOf(t, op.operatorId, venueId, id, at('2026-06-20'));
    await crm(t, op.headers).put(`/${id}/tags`, { scope: 'venue', venue_id: other, tags: ['Known here'] });
    expect((await crm(t, op.headers).get(`/${id}`)).json().guest.venue_ids).toBe([venueId, other].sort().join(','));
    const limited = await createStaff(t, op, { guests: 'read' }, [other]);
    expect((await crm(t, limited.headers).get(`/${id}`)).statusCode).toBe(200);
  });

  it('concurrent replacements leave exactly one of the sets', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await guestUser(t, 'Raced Tags');
    await bookingOf(t, op.operatorId, venueId, id, at('2026-06-20'));
    const sets = Array.from({ length: 10 }, (_, i) => [`set${i}-a`, `set${i}-b`]);
    const answers = await Promise.all(sets.map((tags) => crm(t, op.headers).put(`/${id}/tags`, { tags })));
    expect(answers.map((r) => r.statusCode)).toEqual(sets.map(() => 200));
    const stored = (await crm(t, op.headers).get(`/${id}`)).json().tags.global;
    expect(sets).toContainEqual(stored);
  });
});

describe('POST /api/my-venues/:venueId/guests/walk-in', () => {
  it('answers 400 without a name, 401, 403 without guests:write and 404 for another operator’s venue', async () => {
    const { op, venueId, api } = await setupVenue(t);
    expect((await api.post('/guests/walk-in', { name: '  ' })).statusCode).toBe(400);
    expect((await api.post('/guests/walk-in', {})).statusCode).toBe(400);
    expect((await api.post('/guests/walk-in', { name: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await api.post('/guests/walk-in', { name: 'Long Phone', phone: '1'.repeat(51) })).statusCode).toBe(400);
    expect((await venueApi(t, {}, venueId).post('/guests/walk-in', { name: 'A' })).statusCode).toBe(401);
    const stranger = await setupVenue(t);
    expect((await venueApi(t, stranger.op.headers, venueId).post('/guests/walk-in', { name: 'A' })).statusCode).toBe(404);
    const created = (await api.post('/guests/walk-in', { name: 'No Phone' })).json();
    expect(created).toEqual({ id: expect.any(String), name: 'No Phone', email: `walkin+${created.id}@guests.invalid`, phone: null });
    const feed = (await crm(t, op.headers).get(`/${created.id}/activity`)).json().data;
    expect(feed).toEqual([expect.objectContaining({ type: 'walk_in', summary: 'Walk-in record created', venue_id: venueId })]);
    // A walk-in record cannot sign in.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: created.email, password: 'anything-at-all' },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('joinRoster', () => {
  it('is idempotent, widens first and last seen, ignores a null or non-guest user, and survives concurrent joins', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await guestUser(t, 'Joiner');
    const join = (iso: string) =>
      withTransaction(t.db, (trx) => joinRoster(trx, { operatorId: op.operatorId, venueId, userId: id, at: new Date(iso) }));
    await Promise.all(Array.from({ length: 20 }, (_, i) => join(`2026-06-${String(1 + i).padStart(2, '0')}T10:00:00.000Z`)));
    await join('2026-05-01T10:00:00.000Z');
    const row = await t.db.kysely.selectFrom('guest_roster').selectAll().where('user_id', '=', id).execute();
    expect(row).toEqual([
      {
        operator_id: op.operatorId,
        user_id: id,
        first_seen_at: '2026-05-01T10:00:00.000Z',
        last_seen_at: '2026-06-20T10:00:00.000Z',
        phone: null,
      },
    ]);
    expect(await countRows(t, 'guest_roster_venues', { user_id: id })).toBe(1);
    await joinRoster(t.db, { operatorId: op.operatorId, venueId, userId: null, at: t.clock.now() });
    await joinRoster(t.db, { operatorId: op.operatorId, venueId, userId: op.userId, at: t.clock.now() });
    expect(await countRows(t, 'guest_roster', { operator_id: op.operatorId })).toBe(1);
  });
});

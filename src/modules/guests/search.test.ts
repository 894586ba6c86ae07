/**
 * Roster search and the venue guest search: what matches (name, name word, email, phone in any format,
 * case and accents), the limits (min 2 characters, 50 and 12 results), scope, permissions, and the
 * query plan (the search is an index range scan on both engines).
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { joinRoster, joinRosterMany } from './index.js';
import { at, bookingOf, crm, guestUser } from './guests.test-support.js';
import { searchTermQuery } from './roster.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const names = (res: { json(): { data: { name: string }[] } }) =>
  res
    .json()
    .data.map((g) => g.name)
    .sort();

describe('GET /api/my-guests/search', () => {
  it('matches a prefix of the name, a name word, the email or the phone, in any case, accents ignored', async () => {
    const { op, venueId } = await setupVenue(t);
    const jose = await guestUser(t, 'José Álvarez', { email: 'jalvarez@mail.example.test', phone: '+44 7700 900456' });
    const joan = await guestUser(t, 'Joan Baker', { email: 'joan@bakery.example.test', phone: '020 7946 0111' });
    await bookingOf(t, op.operatorId, venueId, jose, at('2026-06-20'));
    await bookingOf(t, op.operatorId, venueId, joan, at('2026-06-20'));
    const api = crm(t, op.headers);
    const search = async (q: string) => names(await api.get(`/search?q=${encodeURIComponent(q)}`));
    expect(await search('jo')).toEqual(['Joan Baker', 'José Álvarez']);
    expect(await search('JOSE')).toEqual(['José Álvarez']);
    expect(await search('alv')).toEqual(['José Álvarez']);
    expect(await search('José Á')).toEqual(['José Álvarez']);
    expect(await search('joan@bak')).toEqual(['Joan Baker']);
    expect(await search('bakery.example')).toEqual(['Joan Baker']);
    expect(await search('07700 900')).toEqual(['José Álvarez']);
    expect(await search('+44 7700')).toEqual(['José Álvarez']);
    expect(await search('0207946')).toEqual(['Joan Baker']);
    // By the last digits of the phone, as staff read them off a caller id.
    expect(await search('0456')).toEqual(['José Álvarez']);
    expect(await search('900456')).toEqual(['José Álvarez']);
    expect(await search('0111')).toEqual(['Joan Baker']);
    expect(await search('111')).toEqual(['Joan Baker']);
    expect(await search('4560')).toEqual([]);
    expect(await search('zz')).toEqual([]);
    expect((await api.get('/search?q=jo')).json().data[0]).toMatchObject({ venue_ids: venueId, successful_visits: 0 });
  });

  it('answers 400 under 2 characters, and at most 50 guests', async () => {
    const { op, venueId } = await setupVenue(t);
    const api = crm(t, op.headers);
    expect((await api.get('/search?q=a')).statusCode).toBe(400);
    expect((await api.get('/search?q=%20a%20')).statusCode).toBe(400);
    expect((await api.get('/search')).statusCode).toBe(400);
    for (let i = 0; i < 55; i++) await bookingOf(t, op.operatorId, venueId, await guestUser(t, `Many ${i}`), at('2026-06-20'));
    const res = await api.get('/search?q=many');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(50);
  });

  it('reads on past guests with many matching terms until it has 50', async () => {
    const { op, venueId } = await setupVenue(t);
    // 11 terms each starting with `wo` (the name and its 10 words): the first index batch holds about 36 guests.
    for (let i = 10; i < 70; i++) {
      const name = Array.from({ length: 10 }, (_, w) => `wo${i}${String.fromCharCode(97 + w)}`).join(' ');
      await bookingOf(t, op.operatorId, venueId, await guestUser(t, name), at('2026-06-20'));
    }
    const found = (await crm(t, op.headers).get('/search?q=wo')).json().data;
    expect(found).toHaveLength(50);
    expect(found[0].name.startsWith('wo10a')).toBe(true);
  });

  it('never finds another operator’s guest, nor a guest outside a limited role’s venues', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId);
    const mine = await guestUser(t, 'Quentin Here');
    const elsewhere = await guestUser(t, 'Quentin There');
    await bookingOf(t, op.operatorId, venueId, mine, at('2026-06-20'));
    await bookingOf(t, op.operatorId, other, elsewhere, at('2026-06-20'));
    const stranger = await setupVenue(t);
    await bookingOf(t, stranger.op.operatorId, stranger.venueId, await guestUser(t, 'Quentin Stranger'), at('2026-06-20'));
    expect(names(await crm(t, op.headers).get('/search?q=quentin'))).toEqual(['Quentin Here', 'Quentin There']);
    const staff = await createStaff(t, op, { guests: 'read' }, [venueId]);
    expect(names(await crm(t, staff.headers).get('/search?q=quentin'))).toEqual(['Quentin Here']);
    expect((await t.app.inject({ method: 'GET', url: '/api/my-guests/search?q=quentin' })).statusCode).toBe(401);
    const noPerm = await createStaff(t, op, { bookings: 'read' });
    expect((await crm(t, noPerm.headers).get('/search?q=quentin')).statusCode).toBe(403);
  });

  it('finds a guest by the new name after the guest is seen again', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await guestUser(t, 'Old Name');
    await bookingOf(t, op.operatorId, venueId, id, at('2026-06-20'));
    await t.db.kysely.updateTable('users').set({ name: 'Renamed Person' }).where('id', '=', id).execute();
    await joinRoster(t.db, { operatorId: op.operatorId, venueId, userId: id, at: t.clock.now() });
    expect(names(await crm(t, op.headers).get('/search?q=renamed'))).toEqual(['Renamed Person']);
    expect(names(await crm(t, op.headers).get('/search?q=old'))).toEqual([]);
  });

  it('joins several guests at once (a batch of bookings): one row per guest, the widest span, the latest phone', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId, { name: 'Batch Second' });
    const ida = await guestUser(t, 'Ida Batchelor');
    const jon = await guestUser(t, 'Jon Batchelor');
    // Jon was on the roster already, as "Old Batchelor" terms would show: renamed since.
    await joinRosterMany(t.db, [{ operatorId: op.operatorId, venueId, userId: jon, at: new Date('2026-05-01T10:00:00Z') }]);
    await t.db.kysely.updateTable('users').set({ name: 'Jon Renamed' }).where('id', '=', jon).execute();
    const staffUser = await createStaff(t, op, { guests: 'read' });
    await joinRosterMany(t.db, [
      { operatorId: op.operatorId, venueId, userId: ida, at: new Date('2026-06-02T10:00:00Z'), phone: '+44 7700 900001' },
      { operatorId: op.operatorId, venueId: other, userId: jon, at: new Date('2026-06-03T10:00:00Z') },
      // Ida again, earlier and with a newer phone: one row whose span covers both.
      { operatorId: op.operatorId, venueId, userId: ida, at: new Date('2026-06-01T10:00:00Z'), phone: '+44 7700 900002' },
      { operatorId: op.operatorId, venueId, userId: null, at: new Date('2026-06-01T10:00:00Z') },
      // A staff user is never a roster guest.
      { operatorId: op.operatorId, venueId, userId: staffUser.userId, at: new Date('2026-06-01T10:00:00Z') },
    ]);
    const roster = await t.db.kysely
      .selectFrom('guest_roster')
      .select(['user_id', 'first_seen_at', 'last_seen_at', 'phone'])
      .where('operator_id', '=', op.operatorId)
      .orderBy('first_seen_at')
      .execute();
    expect(roster).toEqual([
      { user_id: jon, first_seen_at: '2026-05-01T10:00:00.000Z', last_seen_at: '2026-06-03T10:00:00.000Z', phone: null },
      { user_id: ida, first_seen_at: '2026-06-01T10:00:00.000Z', last_seen_at: '2026-06-02T10:00:00.000Z', phone: '+44 7700 900002' },
    ]);
    const rosterVenues = await t.db.kysely
      .selectFrom('guest_roster_venues')
      .select(['user_id', 'venue_id'])
      .where('operator_id', '=', op.operatorId)
      .execute();
    expect(rosterVenues).toHaveLength(3);
    expect(names(await crm(t, op.headers).get('/search?q=batchelor'))).toEqual(['Ida Batchelor']);
    expect(names(await crm(t, op.headers).get('/search?q=renamed'))).toEqual(['Jon Renamed']);
    expect(names(await crm(t, op.headers).get('/search?q=900002'))).toEqual(['Ida Batchelor']);
  });
  it('writes the terms of guest records made in the batch without deleting any; a known guest’s stale terms still go', async () => {
    const { op, venueId } = await setupVenue(t);
    const known = await guestUser(t, 'Kim Former');
    await joinRoster(t.db, { operatorId: op.operatorId, venueId, userId: known, at: t.clock.now() });
    await t.db.kysely.updateTable('users').set({ name: 'Kim Latter' }).where('id', '=', known).execute();
    // Records as a batch makes them (newGuestRecord): written in its transaction, nothing names them yet.
    const made = async (name: string) => {
      const id = await guestUser(t, name);
      return {
        id,
        name,
        email: (await t.db.kysely.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email,
        made: true as const,
      };
    };
    const first = await made('Mae Firsttime');
    const second = await made('Moe Firsttime');
    const deletes: string[] = [];
    const recording = t.db.kysely.withPlugin({
      transformQuery({ node }) {
        // PostgreSQL's delete is a part of the insert's statement (WITH stale AS (DELETE …)).
        const text = JSON.stringify(node);
        if (text.includes('"DeleteQueryNode"')) deletes.push(text);
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const entry = (guest: { id: string; name: string; email: string; made: true }) => ({
      operatorId: op.operatorId,
      venueId,
      userId: guest.id,
      at: t.clock.now(),
      guest,
    });
    await joinRosterMany(recording, [entry(first), entry(second)]);
    expect(deletes).toEqual([]);
    expect(names(await crm(t, op.headers).get('/search?q=firsttime'))).toEqual(['Mae Firsttime', 'Moe Firsttime']);

    await joinRosterMany(recording, [
      { operatorId: op.operatorId, venueId, userId: known, at: t.clock.now() },
      entry(await made('Mia Firsttime')),
    ]);
    expect(deletes).toHaveLength(1);
    // The known guest's stale terms are deleted, and only theirs: the made guest's id is not in the delete.
    expect(deletes[0]).toContain(known);
    expect(deletes[0]).not.toContain('Mia');
    expect(names(await crm(t, op.headers).get('/search?q=former'))).toEqual([]);
    expect(names(await crm(t, op.headers).get('/search?q=latter'))).toEqual(['Kim Latter']);
    expect(names(await crm(t, op.headers).get('/search?q=firsttime'))).toEqual(['Mae Firsttime', 'Mia Firsttime', 'Moe Firsttime']);
  });
});

describe('GET /api/my-venues/:venueId/guests/search', () => {
  it('finds the venue’s guests only, at most 12, with id, name, email, phone and image', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId);
    for (let i = 0; i < 14; i++) await bookingOf(t, op.operatorId, venueId, await guestUser(t, `Venue Guest ${i}`), at('2026-06-20'));
    await bookingOf(t, op.operatorId, other, await guestUser(t, 'Venue Guest elsewhere'), at('2026-06-20'));
    const api = venueApi(t, op.headers, venueId);
    const res = await api.get('/guests/search?q=venue%20gu');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(12);
    expect(Object.keys(res.json().data[0]).sort()).toEqual(['email', 'id', 'name', 'phone', 'profile_image_url']);
    expect(names(await venueApi(t, op.headers, other).get('/guests/search?q=venue'))).toEqual(['Venue Guest elsewhere']);
    expect((await api.get('/guests/search?q=v')).statusCode).toBe(400);
  });

  it('answers 401, 403 without guests:read, 404 for another operator’s venue or one outside the role', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId);
    expect((await venueApi(t, {}, venueId).get('/guests/search?q=ab')).statusCode).toBe(401);
    const noPerm = await createStaff(t, op, { tables: 'write' });
    expect((await venueApi(t, noPerm.headers, venueId).get('/guests/search?q=ab')).statusCode).toBe(403);
    const limited = await createStaff(t, op, { guests: 'read' }, [venueId]);
    expect((await venueApi(t, limited.headers, other).get('/guests/search?q=ab')).statusCode).toBe(404);
    const stranger = await setupVenue(t);
    expect((await venueApi(t, stranger.op.headers, venueId).get('/guests/search?q=ab')).statusCode).toBe(404);
  });
});

describe('the search query plan', () => {
  it('is a range scan of the search-term index', async () => {
    const { op, venueId } = await setupVenue(t);
    for (let i = 0; i < 30; i++) await bookingOf(t, op.operatorId, venueId, await guestUser(t, `Planned ${i}`), at('2026-06-20'));
    const compiled = searchTermQuery(t.db, { operatorId: op.operatorId, venueIds: null }, 'plan', 400, null).compile();
    const explain = (prefix: string) => CompiledQuery.raw(`${prefix} ${compiled.sql}`, [...compiled.parameters]);
    if (t.db.engine === 'postgres') {
      // The planner prefers a sequential scan on a table this small: forbid it to see whether an index serves the query.
      const rows = await t.db.kysely.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return (await trx.executeQuery<{ 'QUERY PLAN': string }>(explain('explain'))).rows;
      });
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index (Only )?Scan using guest_search_terms_pk on guest_search_terms/);
      expect(plan).toMatch(/Index Cond: \(\(operator_id = .*\) AND \(term >= .*\) AND \(term < .*\)\)/);
    } else {
      const rows = (await t.db.kysely.executeQuery<{ detail: string }>(explain('explain query plan'))).rows;
      const plan = rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(
        /SEARCH guest_search_terms USING (COVERING )?INDEX sqlite_autoindex_guest_search_terms_1 \(operator_id=\? AND term>\? AND term<\?\)/,
      );
      // Read in index order: no sort, no grouping.
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { api } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

const sisterIds = async (venueId: string, who: { headers: Record<string, string> }) => {
  const res = await http.get(`/api/my-venues/${venueId}/sisters`, who);
  expect(res.statusCode).toBe(200);
  return res.json().data.map((row: { id: string }) => row.id);
};

describe('sister venues', () => {
  it('links both ways, lists each side, and unlinks both ways', async () => {
    const op = await createOperator(t);
    const a = await insertVenue(t, op.operatorId, { name: 'Alpha', venue_type: 'bar' });
    const b = await insertVenue(t, op.operatorId, { name: 'Bravo' });
    const c = await insertVenue(t, op.operatorId, { name: 'Charlie' });

    const added = await http.post(`/api/my-venues/${a}/sisters`, op, { sister_venue_id: b });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ success: true });
    await http.post(`/api/my-venues/${c}/sisters`, op, { sister_venue_id: a });

    const list = await http.get(`/api/my-venues/${a}/sisters`, op);
    expect(list.headers['cache-control']).toBe('private, no-store');
    expect(list.json().data).toEqual([
      {
        id: b,
        name: 'Bravo',
        address: '1 High Street, London',
        status: 'live',
        venue_type: null,
        logo_url: null,
        linked_at: t.clock.now().toISOString(),
      },
      {
        id: c,
        name: 'Charlie',
        address: '1 High Street, London',
        status: 'live',
        venue_type: null,
        logo_url: null,
        linked_at: t.clock.now().toISOString(),
      },
    ]);
    expect(await sisterIds(b, op)).toEqual([a]);
    expect(await sisterIds(c, op)).toEqual([a]);

    // Linking again, from either side, changes nothing.
    expect((await http.post(`/api/my-venues/${b}/sisters`, op, { sister_venue_id: a })).statusCode).toBe(200);
    expect(await sisterIds(a, op)).toEqual([b, c]);

    const removed = await http.del(`/api/my-venues/${b}/sisters/${a}`, op);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true });
    expect(await sisterIds(a, op)).toEqual([c]);
    expect(await sisterIds(b, op)).toEqual([]);
    expect((await http.del(`/api/my-venues/${b}/sisters/${a}`, op)).statusCode).toBe(404);
  });

  it('refuses a venue as its own sister (400) and validates the body', async () => {
    const op = await createOperator(t);
    const a = await insertVenue(t, op.operatorId);
    const self = await http.post(`/api/my-venues/${a}/sisters`, op, { sister_venue_id: a });
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toMatch(/own sister/);
    const missing = await http.post(`/api/my-venues/${a}/sisters`, op, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/sister_venue_id/);
    expect(await sisterIds(a, op)).toEqual([]);
  });

  it("refuses another account's venue as a sister (404) on add and remove", async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId);
    const res = await http.post(`/api/my-venues/${mine}/sisters`, op, { sister_venue_id: theirs });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: 'Venue not found' });
    expect((await http.post(`/api/my-venues/${mine}/sisters`, op, { sister_venue_id: 'ven_missing' })).statusCode).toBe(404);
    expect((await http.post(`/api/my-venues/${theirs}/sisters`, op, { sister_venue_id: mine })).statusCode).toBe(404);
    expect((await http.get(`/api/my-venues/${theirs}/sisters`, op)).statusCode).toBe(404);
    expect((await http.del(`/api/my-venues/${theirs}/sisters/${mine}`, op)).statusCode).toBe(404);
    expect(await sisterIds(mine, op)).toEqual([]);
    expect(await sisterIds(theirs, other)).toEqual([]);
  });

  it('needs both venues inside a scoped role, and lists only sisters in its scope', async () => {
    const op = await createOperator(t);
    const a = await insertVenue(t, op.operatorId, { name: 'A' });
    const b = await insertVenue(t, op.operatorId, { name: 'B' });
    const c = await insertVenue(t, op.operatorId, { name: 'C' });
    const scoped = await createStaff(t, op, { 'venues.sisters': 'write' }, [a, b]);

    expect((await http.post(`/api/my-venues/${a}/sisters`, scoped, { sister_venue_id: c })).statusCode).toBe(404);
    expect((await http.post(`/api/my-venues/${c}/sisters`, scoped, { sister_venue_id: a })).statusCode).toBe(404);
    expect((await http.post(`/api/my-venues/${a}/sisters`, scoped, { sister_venue_id: b })).statusCode).toBe(200);

    await http.post(`/api/my-venues/${a}/sisters`, op, { sister_venue_id: c });
    expect(await sisterIds(a, op)).toEqual([b, c]);
    expect(await sisterIds(a, scoped)).toEqual([b]);
    expect((await http.del(`/api/my-venues/${a}/sisters/${c}`, scoped)).statusCode).toBe(404);
    expect(await sisterIds(a, op)).toEqual([b, c]);
  });

  it('answers 401 and 403 by venues.sisters permission', async () => {
    const op = await createOperator(t);
    const a = await insertVenue(t, op.operatorId);
    const b = await insertVenue(t, op.operatorId);
    expect((await http.get(`/api/my-venues/${a}/sisters`, null)).statusCode).toBe(401);
    expect((await http.post(`/api/my-venues/${a}/sisters`, null, { sister_venue_id: b })).statusCode).toBe(401);
    expect((await http.del(`/api/my-venues/${a}/sisters/${b}`, null)).statusCode).toBe(401);

    const none = await createStaff(t, op, { 'venues.settings': 'write' });
    expect((await http.get(`/api/my-venues/${a}/sisters`, none)).statusCode).toBe(403);
    const reader = await createStaff(t, op, { 'venues.sisters': 'read' });
    expect((await http.get(`/api/my-venues/${a}/sisters`, reader)).statusCode).toBe(200);
    expect((await http.post(`/api/my-venues/${a}/sisters`, reader, { sister_venue_id: b })).statusCode).toBe(403);
    await http.post(`/api/my-venues/${a}/sisters`, op, { sister_venue_id: b });
    expect((await http.del(`/api/my-venues/${a}/sisters/${b}`, reader)).statusCode).toBe(403);
    expect(await sisterIds(a, op)).toEqual([b]);
  });
});

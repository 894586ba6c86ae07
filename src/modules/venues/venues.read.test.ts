/** GET /api/my-venues/:id (an extension): one venue with every field, venue-scoped like the other venue routes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { api, readVenue } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

describe('GET /api/my-venues/:id', () => {
  it('reads one venue with every field, as the list shows it', async () => {
    const op = await createOperator(t);
    const id = (
      await http.post('/api/my-venues', op, {
        name: 'The Copper Still',
        address: '12 Canal Street',
        venue_type: 'restaurant',
        food_types: ['italian'],
        opening_hours: { fri: [{ open: '18:00', close: '02:00' }] },
        booking_policy: 'tables',
        tables_enabled: 1,
      })
    ).json().id;
    await insertVenue(t, op.operatorId, { name: 'Another' });

    const res = await http.get(`/api/my-venues/${id}`, op);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toEqual(await readVenue(t, op, id));
    expect(res.json()).toMatchObject({
      id,
      name: 'The Copper Still',
      food_types: ['italian'],
      opening_hours: { fri: [{ open: '18:00', close: '02:00' }] },
      booking_policy: 'tables',
      tables_enabled: true,
      status: 'live',
      timezone: 'Europe/London',
    });
  });

  it('answers 401 without a session and 403 without venues.settings:read', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    expect((await http.get(`/api/my-venues/${id}`, null)).statusCode).toBe(401);
    const staff = await createStaff(t, op, { tables: 'write', 'venues.branding': 'write' });
    expect((await http.get(`/api/my-venues/${id}`, staff)).statusCode).toBe(403);
    const reader = await createStaff(t, op, { 'venues.settings': 'read' });
    expect((await http.get(`/api/my-venues/${id}`, reader)).statusCode).toBe(200);
  });

  it("answers 404 for another account's venue, one outside the role's scope and an unknown id", async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId, { name: 'Not yours' });

    const cross = await http.get(`/api/my-venues/${theirs}`, op);
    expect(cross.statusCode).toBe(404);
    expect(cross.json()).toEqual({ request_id: expect.any(String), error: 'Venue not found' });
    expect((await http.get('/api/my-venues/ven_nope', op)).statusCode).toBe(404);

    const scoped = await createStaff(t, op, { 'venues.settings': 'read' }, [mine]);
    expect((await http.get(`/api/my-venues/${second}`, scoped)).statusCode).toBe(404);
    expect((await http.get(`/api/my-venues/${mine}`, scoped)).json().id).toBe(mine);
  });
});

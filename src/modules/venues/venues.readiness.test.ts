import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { api, completeVenue } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

const readiness = (id: string, who: { headers: Record<string, string> } | null) => http.get(`/api/my-venues/${id}/readiness`, who);

describe('GET /api/my-venues/:id/readiness', () => {
  it('names what a go-live would miss, exactly as the refused go-live does', async () => {
    const op = await createOperator(t);
    const id = (await http.post('/api/my-venues', op, { name: 'Fresh', address: '1 Road' })).json().id;
    await http.put(`/api/my-venues/${id}/status`, op, { status: 'draft' });

    const before = await readiness(id, op);
    expect(before.statusCode).toBe(200);
    expect(before.headers['cache-control']).toBe('private, no-store');
    expect(before.json()).toEqual({
      status: 'draft',
      ready: false,
      missing: ['venue_type', 'phone', 'email', 'backdoor_capacity', 'last_entry_time', 'logo'],
    });
    const refused = await http.put(`/api/my-venues/${id}/status`, op, { status: 'live' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().missing).toEqual(before.json().missing);

    await http.put(`/api/my-venues/${id}`, op, { venue_type: 'bar', phone: '+44 20 7946 0000', backdoor_capacity: 80 });
    expect((await readiness(id, op)).json()).toEqual({ status: 'draft', ready: false, missing: ['email', 'last_entry_time', 'logo'] });
  });

  it('reports a complete venue ready, and its status', async () => {
    const op = await createOperator(t);
    const draft = await completeVenue(t, op.operatorId, { status: 'draft' });
    expect((await readiness(draft, op)).json()).toEqual({ status: 'draft', ready: true, missing: [] });
    const live = await completeVenue(t, op.operatorId, { status: 'live', phone: null });
    expect((await readiness(live, op)).json()).toEqual({ status: 'live', ready: false, missing: ['phone'] });
  });

  it('needs a session, the venue settings read permission, and a venue of the caller', async () => {
    const op = await createOperator(t);
    const id = await completeVenue(t, op.operatorId);
    expect((await readiness(id, null)).statusCode).toBe(401);

    const reader = await createStaff(t, op, { 'venues.settings': 'read' });
    expect((await readiness(id, reader)).statusCode).toBe(200);
    const host = await createStaff(t, op, { bookings: 'write' });
    expect((await readiness(id, host)).statusCode).toBe(403);

    const other = await createOperator(t);
    expect((await readiness(id, other)).statusCode).toBe(404);
    const scoped = await createStaff(t, op, { venues: 'read' }, [await completeVenue(t, op.operatorId)]);
    expect((await readiness(id, scoped)).statusCode).toBe(404);
  });
});

/**
 * Contact details a guest gives a venue belong to that operator's roster entry (security round 2,
 * finding 3): another operator sees only what was given to it, and a staff booking by raw `user_id`
 * names only a guest already on the caller's roster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, uniqueEmail, type TestApp } from '../../../test/helpers/app.js';
import { readRow } from '../../../test/helpers/rows.js';
import { crm } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const PHONE_FOR_A = '+44 7700 900555';

function staffBook(headers: Record<string, string>, venueId: string, guest: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/my-venues/${venueId}/staff-bookings`,
    headers,
    payload: { party_size: 2, date: '2026-06-20', time: '19:00', table_ids: [], ...guest },
  });
}

describe("a guest's phone stays with the operator it was given to", () => {
  it('operator B booking the guest by email sees no phone in its CRM; operator A still sees the one given to it', async () => {
    const a = await setupVenue(t, { name: 'Venue A' });
    const b = await setupVenue(t, { name: 'Venue B' });
    const email = uniqueEmail('shared');
    const atA = await staffBook(a.op.headers, a.venueId, { guest_name: 'Sam Shared', guest_email: email, guest_phone: PHONE_FOR_A });
    expect(atA.statusCode, atA.body).toBe(200);
    const userId = (await readRow(t, 'bookings', atA.json().id))!.user_id as string;

    const atB = await staffBook(b.op.headers, b.venueId, { guest_name: 'Sam Shared', guest_email: email });
    expect(atB.statusCode, atB.body).toBe(200);
    expect((await readRow(t, 'bookings', atB.json().id))!.user_id).toBe(userId);

    const seenByB = await crm(t, b.op.headers).get(`/${userId}`);
    expect(seenByB.statusCode).toBe(200);
    expect(seenByB.json().guest.phone).toBe('');
    const rosterB = await crm(t, b.op.headers).get('');
    expect(rosterB.json().data.find((g: { id: string }) => g.id === userId).phone).toBe('');
    expect(JSON.stringify((await crm(t, b.op.headers).get(`/${userId}/export`)).json())).not.toContain('900555');
    // B cannot find the guest by A's phone either.
    expect((await crm(t, b.op.headers).get('/search?q=07700900555')).json().data).toEqual([]);

    expect((await crm(t, a.op.headers).get(`/${userId}`)).json().guest.phone).toBe(PHONE_FOR_A);
    expect((await crm(t, a.op.headers).get('/search?q=07700900555')).json().data.map((g: { id: string }) => g.id)).toEqual([userId]);

    // A phone B is given later is B's own.
    await staffBook(b.op.headers, b.venueId, { guest_name: 'Sam Shared', guest_email: email, guest_phone: '+44 7700 900777' });
    expect((await crm(t, b.op.headers).get(`/${userId}`)).json().guest.phone).toBe('+44 7700 900777');
    expect((await crm(t, a.op.headers).get(`/${userId}`)).json().guest.phone).toBe(PHONE_FOR_A);
  });

  it('a staff booking by user_id names only a guest on the caller’s roster (404 otherwise), copying only the phone given to it', async () => {
    const a = await setupVenue(t, { name: 'Venue A' });
    const b = await setupVenue(t, { name: 'Venue B' });
    const email = uniqueEmail('raw-id');
    const atA = await staffBook(a.op.headers, a.venueId, { guest_name: 'Rae Raw', guest_email: email, guest_phone: PHONE_FOR_A });
    const userId = (await readRow(t, 'bookings', atA.json().id))!.user_id as string;

    const byId = await staffBook(b.op.headers, b.venueId, { user_id: userId });
    expect(byId.statusCode).toBe(404);
    expect(byId.json()).toEqual({ request_id: expect.any(String), error: 'Guest not found' });
    expect((await crm(t, b.op.headers).get(`/${userId}`)).statusCode).toBe(404);

    // Once B has the guest (booked by email, no phone), a booking by id copies B's details only.
    await staffBook(b.op.headers, b.venueId, { guest_name: 'Rae Raw', guest_email: email });
    const again = await staffBook(b.op.headers, b.venueId, { user_id: userId });
    expect(again.statusCode, again.body).toBe(200);
    expect(await readRow(t, 'bookings', again.json().id)).toMatchObject({ user_id: userId, guest_email: email, guest_phone: null });

    // A's own booking by id still carries the phone given to A.
    const atAById = await staffBook(a.op.headers, a.venueId, { user_id: userId });
    expect(await readRow(t, 'bookings', atAById.json().id)).toMatchObject({ guest_phone: PHONE_FOR_A });
  });
});

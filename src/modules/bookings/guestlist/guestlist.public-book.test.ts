/**
 * The public booking (`POST …/book`) on a guest-list rule: it takes a free place only, within the free
 * list's places, the list's cover limit and the door's capacity, also when 30 guests race for the last
 * places; a list without free entry answers 402 and books nothing (its places are bought with keys).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { FRIDAY, guestlistVenue, insertList } from './guestlist.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
});
afterAll(async () => t.close());

let n = 0;
const book = (venueId: string, ruleId: string, party = 1) =>
  t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    payload: {
      access_rule_id: ruleId,
      rule_type: 'guestlist',
      date: FRIDAY,
      time: '20:00',
      party_size: party,
      guest_name: 'Door Guest',
      guest_email: `door${++n}@example.test`,
    },
  });

const onList = (venueId: string) =>
  t.db.kysely
    .selectFrom('bookings')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('guest_count'), eb.lit(0)).as('covers'))
    .where('venue_id', '=', venueId)
    .where('kind', '=', 'guestlist')
    .where('status', 'in', ['pending', 'approved', 'confirmed'])
    .executeTakeFirstOrThrow();

describe('POST /book on a guest list', () => {
  it('is 402 for a list without free entry, and books nothing', async () => {
    const { venueId } = await guestlistVenue(t);
    const ruleId = await insertList(t, venueId);
    const res = await book(venueId, ruleId);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ error: expect.stringContaining('keys'), reason: 'keys_required' });
    expect(Number((await onList(venueId)).covers)).toBe(0);
  });

  it('takes free places until they run out, then 409', async () => {
    const { venueId } = await guestlistVenue(t);
    const ruleId = await insertList(t, venueId, { paid_guest_list_enabled: 0, free_guest_list_enabled: 1, free_guest_list_value: 3 });
    expect((await book(venueId, ruleId, 2)).statusCode).toBe(200);
    const full = await book(venueId, ruleId, 2);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ reason: 'free_full' });
    expect((await book(venueId, ruleId, 1)).statusCode).toBe(200);
    expect(Number((await onList(venueId)).covers)).toBe(3);
  });

  it('never oversells the door under 30 concurrent bookings for the last 3 places', async () => {
    const { venueId } = await guestlistVenue(t, { backdoor_capacity: 5 });
    const ruleId = await insertList(t, venueId, { paid_guest_list_enabled: 0, free_guest_list_enabled: 1 });
    expect((await book(venueId, ruleId, 2)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 30 }, () => book(venueId, ruleId, 1)));
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(3);
    expect(codes.filter((code) => code !== 200).every((code) => code === 409)).toBe(true);
    expect(Number((await onList(venueId)).covers)).toBe(5);
  });
});

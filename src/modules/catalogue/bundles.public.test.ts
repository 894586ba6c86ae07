/** `GET /api/public/venues/:venueId/bundles`: a live venue's bundles with items and prices, for guests; nothing internal. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectCreated, setupVenue, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const list = (venueId: string) => t.app.inject({ url: `/api/public/venues/${venueId}/bundles` });

describe('public bundles', () => {
  it('lists each bundle with its items and price, without a session', async () => {
    const { venueId, api } = await setupVenue(t);
    const bundleId = expectCreated(await api.post('/bundles', { name: 'Fizz for two', applicable_profiles: ['tables'] }));
    // The list is in creation order: the fixed test clock moves on between creates.
    t.clock.advance(1000);
    expectCreated(await api.post(`/bundles/${bundleId}/items`, { name: 'Prosecco', price: 3200, max_qty: 2 }));
    t.clock.advance(1000);
    expectCreated(await api.post(`/bundles/${bundleId}/items`, { name: 'Olives', price: 450 }));
    t.clock.advance(1000);
    const empty = expectCreated(await api.post('/bundles', { name: 'Nothing yet' }));
    const res = await list(venueId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=30');
    expect(res.json()).toEqual({
      data: [
        {
          id: bundleId,
          name: 'Fizz for two',
          applicable_profiles: ['tables'],
          price_pence: 3650,
          items: [
            { name: 'Prosecco', price_pence: 3200, image_url: null },
            { name: 'Olives', price_pence: 450, image_url: null },
          ],
        },
        { id: empty, name: 'Nothing yet', applicable_profiles: ['tables', 'events'], price_pence: 0, items: [] },
      ],
    });
  });

  it('is 404 for a draft or unknown venue', async () => {
    const { venueId } = await setupVenue(t, { status: 'draft' });
    expect((await list(venueId)).statusCode).toBe(404);
    expect((await list('ven_nope')).statusCode).toBe(404);
  });
});

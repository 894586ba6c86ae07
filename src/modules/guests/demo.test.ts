/** `maitred demo` gives the CRM guests with histories, tags, a small network and a walk-in, once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from '../../../test/helpers/app.js';
import { DEMO_EMAIL, DEMO_PASSWORD, runDemo } from '../../demo/demo.js';
import { createOperatorAccount } from '../team/index.js';
import { crm } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const createOperator = (input: { operatorName: string; userName: string; email: string; password: string }) =>
  createOperatorAccount(t.db, input, t.clock.now());

describe('maitred demo: guests', () => {
  it('seeds regulars with visits and tags, a network and a walk-in, and a second run adds nothing', async () => {
    const demo = await runDemo(t.app, createOperator, t.ctx);
    const api = crm(t, bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD)));
    const find = async (q: string) => (await api.get(`/search?q=${encodeURIComponent(q)}`)).json().data[0];
    const amelia = await find('amelia.hughes@example.test');
    const detail = (await api.get(`/${amelia.id}`)).json();
    expect(detail.stats.confirmed_visits).toBeGreaterThanOrEqual(4);
    expect(detail.tags.global).toEqual(['Regular', 'VIP']);
    expect(detail.is_connection).toBe(true);
    expect(detail.score.breakdown.visits).toBe(40);
    const priya = await find('priya.sharma@example.test');
    expect((await api.get(`/${priya.id}`)).json().tags.per_venue).toEqual([
      { venue_id: demo.venue_id, venue_name: 'The Night Owl', tags: ['Window seat'] },
    ]);

    const network = (await api.get('/network')).json();
    const pairs = network.edges.map((e: { source: string; target: string }) => [e.source, e.target].sort().join('|'));
    const ids = await Promise.all(
      ['oliver.bennett', 'james.okafor', 'sophie.turner', 'mohammed.rahman'].map(async (n) => (await find(`${n}@example.test`)).id),
    );
    const [oliver, james, sophie, mohammed] = ids;
    for (const [a, b] of [
      [amelia.id, oliver],
      [amelia.id, priya.id],
      [priya.id, james],
      [sophie, mohammed],
    ])
      expect(pairs).toContain([a, b].sort().join('|'));
    const walter = await find('Walter Finch');
    expect(walter).toMatchObject({
      name: 'Walter Finch',
      email: expect.stringMatching(/^walkin\+.*@guests\.invalid$/),
      venue_ids: demo.venue_id,
    });

    const total = (await api.get('')).json().total;
    await runDemo(t.app, createOperator, t.ctx);
    expect((await api.get('')).json().total).toBe(total);
    expect((await api.get('/search?q=walter')).json().data).toHaveLength(1);
  });
});

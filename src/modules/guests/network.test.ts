/**
 * The guest network: the connection relation (booked together on 2+ dates: same venue, date and start
 * time; not cancelled), degree, followers, verified, tier and centre on a small known graph, the one-hop
 * graph, the connection flag, and the admission facts other modules read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, insertVenue, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { guestForEmail } from '../auth/index.js';
import { at, bookingOf, crm, guestUser } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A–B, A–C, C–D and A–F are connected; B–C booked together once only, D–E once, B–D only in cancelled bookings. */
async function knownGraph() {
  const { op, venueId } = await setupVenue(t);
  const g = {
    A: await guestUser(t, 'Alice'),
    B: await guestUser(t, 'Bob'),
    C: await guestUser(t, 'Carol'),
    D: await guestUser(t, 'Dan'),
    E: await guestUser(t, 'Eve'),
    F: (await guestForEmail(t.db, { name: 'Frank', email: 'frank.network@example.test' }, t.clock.now()))!,
  };
  await t.db.kysely.updateTable('users').set({ membership_tier: 'gold' }).where('id', '=', g.A).execute();
  const together = async (date: string, time: string, who: string[], status = 'confirmed') => {
    for (const id of who) await bookingOf(t, op.operatorId, venueId, id, { ...at(date, time), status });
  };
  await together('2026-05-01', '19:00', [g.A, g.B]);
  await together('2026-05-02', '19:00', [g.A, g.B, g.C]);
  await together('2026-05-03', '20:00', [g.A, g.C]);
  await together('2026-05-04', '21:00', [g.D, g.E]);
  await together('2026-05-05', '21:00', [g.C, g.D]);
  await together('2026-05-06', '21:00', [g.C, g.D]);
  await together('2026-05-07', '18:00', [g.A, g.F], 'checked_in');
  await together('2026-05-08', '18:00', [g.A, g.F], 'checked_in');
  await together('2026-05-09', '18:00', [g.B, g.D], 'cancelled');
  await together('2026-05-10', '18:00', [g.B, g.D], 'cancelled');
  // Same date and time at another operator's venue: no relation.
  const stranger = await setupVenue(t);
  for (const id of [g.E, g.A])
    for (const date of ['2026-05-11', '2026-05-12']) await bookingOf(t, stranger.op.operatorId, stranger.venueId, id, at(date));
  return { op, venueId, g };
}

const edgeSet = (edges: { source: string; target: string }[]) => edges.map((e) => [e.source, e.target].sort().join('-')).sort();

describe('GET /api/my-guests/network', () => {
  it('answers the whole graph with degrees, followers and the most connected guest as centre', async () => {
    const { op, g } = await knownGraph();
    const res = await crm(t, op.headers).get('/network');
    expect(res.statusCode, res.body).toBe(200);
    const graph = res.json();
    expect(edgeSet(graph.edges)).toEqual(
      [
        [g.A, g.B],
        [g.A, g.C],
        [g.C, g.D],
        [g.A, g.F],
      ]
        .map((p) => p.sort().join('-'))
        .sort(),
    );
    expect(graph.centre_id).toBe(g.A);
    expect(graph.truncated).toBe(false);
    const node = (id: string) => graph.nodes.find((n: { id: string }) => n.id === id);
    expect(graph.nodes).toHaveLength(5);
    expect(node(g.A)).toEqual({ id: g.A, name: 'Alice', degree: 3, followers: 3, verified: true, tier: 'gold', centre: true });
    expect(node(g.C)).toMatchObject({ degree: 2, followers: 2, centre: false });
    expect(node(g.F)).toEqual({ id: g.F, name: 'Frank', degree: 1, followers: 1, verified: false, tier: '', centre: false });
    expect(node(g.E)).toBeUndefined();
  });

  it('is empty for an operator without connections, and limited to a role’s venues', async () => {
    const { op, g } = await knownGraph();
    const other = await insertVenue(t, op.operatorId);
    const staff = await createStaff(t, op, { guests: 'read' }, [other]);
    await bookingOf(t, op.operatorId, other, g.A, at('2026-06-01'));
    expect((await crm(t, staff.headers).get('/network')).json()).toEqual({ nodes: [], edges: [], centre_id: null, truncated: false });
    const fresh = await setupVenue(t);
    expect((await crm(t, fresh.op.headers).get('/network')).json()).toEqual({ nodes: [], edges: [], centre_id: null, truncated: false });
  });
});

describe('GET /api/my-guests/:id/network', () => {
  it('answers the one-hop graph: the centre, its connections and the edges among them', async () => {
    const { op, g } = await knownGraph();
    const graph = (await crm(t, op.headers).get(`/${g.A}/network`)).json();
    expect(graph.centre_id).toBe(g.A);
    expect(graph.nodes.map((n: { id: string }) => n.id).sort()).toEqual([g.A, g.B, g.C, g.F].sort());
    expect(edgeSet(graph.edges)).toEqual(
      [
        [g.A, g.B],
        [g.A, g.C],
        [g.A, g.F],
      ]
        .map((p) => p.sort().join('-'))
        .sort(),
    );
    const node = (id: string) => graph.nodes.find((n: { id: string }) => n.id === id);
    expect(node(g.A)).toMatchObject({ degree: 3, followers: 3, centre: true });
    // Carol has one edge here, but two connections (Alice and Dan).
    expect(node(g.C)).toMatchObject({ degree: 1, followers: 2, centre: false });

    const dan = (await crm(t, op.headers).get(`/${g.D}/network`)).json();
    expect(edgeSet(dan.edges)).toEqual([[g.C, g.D].sort().join('-')]);
    const lonely = (await crm(t, op.headers).get(`/${g.E}/network`)).json();
    expect(lonely).toEqual({
      nodes: [expect.objectContaining({ id: g.E, degree: 0, followers: 0, centre: true })],
      edges: [],
      centre_id: g.E,
    });
  });

  it('sets is_connection on the detail, and admission facts count connections and tags', async () => {
    const { op, venueId, g } = await knownGraph();
    expect((await crm(t, op.headers).get(`/${g.A}`)).json()).toMatchObject({ is_connection: true, connections: 3 });
    expect((await crm(t, op.headers).get(`/${g.E}`)).json()).toMatchObject({ is_connection: false, connections: 0 });
    await crm(t, op.headers).put(`/${g.A}/tags`, { tags: ['VIP'] });
    await crm(t, op.headers).put(`/${g.A}/tags`, { scope: 'venue', venue_id: venueId, tags: ['Bar'] });
    const other = await insertVenue(t, op.operatorId);
    await crm(t, op.headers).put(`/${g.A}/tags`, { scope: 'venue', venue_id: other, tags: ['Elsewhere'] });
    expect(await t.ctx.guests.admissionFacts(t.db, op.operatorId, venueId, g.A)).toEqual({ tags: ['Bar', 'VIP'], connections: 3 });
    expect(await t.ctx.guests.admissionFacts(t.db, op.operatorId, venueId, g.E)).toEqual({ tags: [], connections: 0 });
  });
});

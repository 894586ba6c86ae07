import type { AddressInfo } from 'node:net';
import net from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { FairShare, registerFairShare } from './fair-share.js';

/** A FairShare whose turns end when the test says so, on a clock the test moves. */
function manual(perTurn = 2, windowMs = 50) {
  const clock = { now: 0 };
  const ticks: (() => void)[] = [];
  const share = new FairShare({ perTurn, windowMs, now: () => clock.now, defer: (tick) => ticks.push(tick) });
  const endTurn = async () => {
    for (const tick of ticks.splice(0)) tick();
    // Let the admitted requests' promise callbacks run.
    await Promise.resolve();
  };
  const admitted: string[] = [];
  /** Asks to go on; records the name once let on. */
  const ask = (tenant: string, name: string) => {
    const turn = share.admit(tenant);
    if (turn) void turn.then(() => admitted.push(name));
    else admitted.push(name);
  };
  return { share, clock, endTurn, admitted, ask };
}

describe('FairShare', () => {
  it('lets a crowd with the process to itself on at once, however many arrive in a turn', () => {
    const { share, admitted, ask } = manual(2);
    for (let i = 0; i < 50; i++) ask('venueId:a', `a${i}`);
    expect(admitted).toHaveLength(50);
    expect(share.queued).toBe(0);
  });

  it('paces a crowd to perTurn a turn while another tenant is present, in arrival order', async () => {
    const { share, endTurn, admitted, ask } = manual(2);
    share.note('venueId:b');
    for (let i = 0; i < 7; i++) ask('venueId:a', `a${i}`);
    expect(admitted).toEqual(['a0', 'a1']);
    expect(share.queued).toBe(5);
    share.note('venueId:b');
    await endTurn();
    expect(admitted).toEqual(['a0', 'a1', 'a2', 'a3']);
    // A request arriving while others wait joins the end of the queue, even with places left this turn.
    ask('venueId:a', 'late');
    expect(admitted).toHaveLength(4);
    share.note('venueId:b');
    await endTurn();
    share.note('venueId:b');
    await endTurn();
    share.note('venueId:b');
    await endTurn();
    expect(admitted).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'late']);
    expect(share.queued).toBe(0);
  });

  it("lets the rest of a queue on at once when the other tenant's window has passed", async () => {
    const { share, clock, endTurn, admitted, ask } = manual(1, 50);
    share.note('');
    for (let i = 0; i < 10; i++) ask('venueId:a', `a${i}`);
    expect(admitted).toHaveLength(1);
    clock.now = 20;
    await endTurn();
    expect(admitted).toHaveLength(2);
    clock.now = 51;
    await endTurn();
    expect(admitted).toHaveLength(10);
  });

  it('gives each of two crowds its own places per turn: neither waits behind the other', async () => {
    const { endTurn, admitted, ask } = manual(1);
    for (let i = 0; i < 3; i++) ask('venueId:a', `a${i}`);
    for (let i = 0; i < 3; i++) ask('eventId:e', `e${i}`);
    // a arrived alone (all three on); e found a present and was paced; a is paced by e's presence now.
    expect(admitted).toEqual(['a0', 'a1', 'a2', 'e0']);
    ask('venueId:a', 'a3');
    ask('venueId:a', 'a4');
    expect(admitted).toEqual(['a0', 'a1', 'a2', 'e0', 'a3']);
    await endTurn();
    expect(admitted.slice(5).sort()).toEqual(['a4', 'e1']);
    await endTurn();
    expect(admitted.slice(7)).toEqual(['e2']);
  });

  it('forgets tenants out of the window, so their ids are not kept', async () => {
    const { share, clock, endTurn, admitted, ask } = manual(1, 50);
    for (let i = 0; i < 1000; i++) share.note(`venueId:${i}`);
    clock.now = 100;
    await endTurn();
    for (let i = 0; i < 5; i++) ask('venueId:a', `a${i}`);
    expect(admitted).toHaveLength(5);
  });
});

describe('registerFairShare', () => {
  it('paces a route that names its tenant while another venue is served, and never for a health probe', async () => {
    const { app, share, crowd } = await pacedApp();
    app.get('/api/public/venues/:venueId/availability', async () => ({ ok: true }));
    app.get('/healthz', async () => ({ ok: true }));
    await app.ready();

    // Alone, and after a health probe (not a tenant): nothing waits.
    expect(await crowd(10)).toEqual({ statuses: Array(10).fill(200), mostWaiting: 0 });
    await app.inject({ method: 'GET', url: '/healthz' });
    expect(await crowd(10)).toEqual({ statuses: Array(10).fill(200), mostWaiting: 0 });
    // The same venue's widget read is the crowd's own tenant: still nothing waits.
    await app.inject({ method: 'GET', url: '/api/public/venues/a/availability' });
    expect(await crowd(10)).toEqual({ statuses: Array(10).fill(200), mostWaiting: 0 });

    // Another venue's widget read: the crowd is paced, and every request is still answered.
    await app.inject({ method: 'GET', url: '/api/public/venues/b/availability' });
    const paced = await crowd(10);
    expect(paced.statuses).toEqual(Array(10).fill(200));
    expect(paced.mostWaiting).toBeGreaterThan(0);
    expect(share.queued).toBe(0);
    await app.close();
  });

  it('counts guests still connecting as present: a crowd is paced while new connections arrive', async () => {
    const { app, crowd } = await pacedApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const accepted = new Promise((resolve) => app.server.once('connection', resolve));
    const socket = net.connect(port, '127.0.0.1');
    await accepted;
    const paced = await crowd(5);
    expect(paced.statuses).toEqual(Array(5).fill(200));
    expect(paced.mostWaiting).toBeGreaterThan(0);
    socket.destroy();
    await app.close();
  });
});

/**
 * An app with a paced booking route (1 a turn while others are present) and `crowd(n)`: n bookings at once,
 * their statuses, and the most requests waiting for their turn that a handler saw as it ran.
 */
async function pacedApp() {
  const app = Fastify();
  const share = registerFairShare(app, new FairShare({ perTurn: 1, windowMs: 10_000 }));
  let mostWaiting = 0;
  app.post('/api/public/venues/:venueId/book', { config: { fairShare: 'venueId' } }, async () => {
    mostWaiting = Math.max(mostWaiting, share.queued);
    return { ok: true };
  });
  const crowd = async (n: number) => {
    mostWaiting = 0;
    const answers = await Promise.all(Array.from({ length: n }, () => app.inject({ method: 'POST', url: '/api/public/venues/a/book' })));
    return { statuses: answers.map((r) => r.statusCode), mostWaiting };
  };
  return { app, share, crowd };
}

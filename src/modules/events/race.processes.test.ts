/**
 * Ticket sales across server instances: three `maitred serve` processes share one PostgreSQL database
 * (the production shape), and 30 purchases of the last 3 tickets race through all three at once.
 * Exactly 3 sell. PostgreSQL only: the embedded SQLite default is one instance by design.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { ENGINE } from '../../../test/helpers/db.js';
import { startCluster, type Cluster } from '../../../test/helpers/serve.js';

describe.runIf(ENGINE === 'postgres')('three server processes, one database', () => {
  let t: TestApp;
  let cluster: Cluster;
  let venueId: string;
  let headers: Record<string, string>;

  /** Calls the API through server `i % 3`. */
  const call: Cluster['call'] = (...args) => cluster.call(...args);

  beforeAll(async () => {
    t = await createTestApp();
    const op = await createOperator(t);
    venueId = await insertVenue(t, op.operatorId);
    // Behind a proxy: each racer comes from an address of its own (unpaid holds are capped per address).
    cluster = await startCluster(3, { DATABASE_URL: t.db.url, TRUST_PROXY: 'true' });
    headers = await cluster.signIn(op.email, op.password);
  }, 180_000);

  afterAll(async () => {
    await cluster.stop();
    await t.close();
  });

  it('30 concurrent purchases of the last 3 tickets through three servers sell exactly 3', async () => {
    // The servers run on the real clock: the event is two months ahead of it.
    const date = new Date(Date.now() + 60 * 24 * 3600_000).toISOString().slice(0, 10);
    const event = await call(
      0,
      'POST',
      '/api/my-events',
      { venue_id: venueId, name: 'Race Night', event_date: date, status: 'approved' },
      headers,
    );
    expect(event.status, JSON.stringify(event.body)).toBe(200);
    const eventId = event.body.id as string;
    const type = await call(
      1,
      'POST',
      `/api/my-events/${eventId}/ticket-types`,
      { name: 'Standard', price_pence: 1500, capacity: 10 },
      headers,
    );
    expect(type.status, JSON.stringify(type.body)).toBe(200);
    const purchase = (i: number, quantity: number) =>
      call(
        i,
        'POST',
        `/api/public/events/${eventId}/create-intent`,
        {
          selection: { kind: 'ticket', ticket_type_id: type.body.id, quantity },
          guest_name: `Racer ${i}`,
          guest_email: `racer${i}@example.test`,
        },
        { 'x-forwarded-for': `203.0.113.${i + 1}` },
      );
    expect((await purchase(2, 7)).status).toBe(200);

    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => purchase(i, 1)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(27);
    const active = await t.db.kysely
      .selectFrom('bookings')
      .select((eb) => eb.fn.sum<number>('guest_count').as('guests'))
      .where('event_id', '=', eventId)
      .where('status', '=', 'pending_payment')
      .executeTakeFirstOrThrow();
    expect(Number(active.guests)).toBe(10);
  });
});

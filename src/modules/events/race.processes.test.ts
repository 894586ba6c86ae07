/**
 * Ticket sales across server instances: three `maitred serve` processes share one PostgreSQL database
 * (the production shape), and 30 purchases of the last 3 tickets race through all three at once.
 * Exactly 3 sell. PostgreSQL only: the embedded SQLite default is one instance by design.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { ENGINE } from '../../../test/helpers/db.js';
import { startServe, stopServes, type ServeProcess } from '../../../test/helpers/serve.js';

describe.runIf(ENGINE === 'postgres')('three server processes, one database', () => {
  let t: TestApp;
  let servers: ServeProcess[] = [];
  let venueId: string;
  let headers: Record<string, string>;
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-events-race-'));

  /** Calls the API through server `i % 3`. */
  const call = async (i: number, method: string, url: string, body?: object, extra: Record<string, string> = {}) => {
    const res = await fetch(`${servers[i % servers.length].base}${url}`, {
      method,
      headers: { ...extra, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const op = await createOperator(t);
    venueId = await insertVenue(t, op.operatorId);
    // One after the other: the first start builds the compiled server if it is out of date.
    // Behind a proxy: each racer comes from an address of its own (unpaid holds are capped per address).
    for (let i = 0; i < 3; i++) servers.push(await startServe({ DATABASE_URL: t.db.url, UPLOADS_DIR: uploads, TRUST_PROXY: 'true' }));
    const login = await call(0, 'POST', '/api/auth/login', { email: op.email, password: op.password });
    headers = { authorization: `Bearer ${login.body.token}` };
  }, 180_000);

  afterAll(async () => {
    await stopServes(servers);
    servers = [];
    await t.close();
    fs.rmSync(uploads, { recursive: true, force: true });
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

/**
 * The live floor stream (`GET /api/my-venues/:venueId/changes`): who may open it, the events a booking
 * made through the public API sends, the keep-alive pings, the per-account cap, and the listener
 * released when the client goes away. Read over a real socket with fetch, as the portal reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, insertVenueRow, type TestApp } from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { ConfigError, loadConfig } from '../../../config/config.js';
import { addDays } from '../../../domain/venue-time.js';
import { openStream, type OpenStream } from './changes.test-support.js';

const EVERY_DAY = '["mon","tue","wed","thu","fri","sat","sun"]';

/** A live venue a guest can book a table at through the public API. */
async function bookableVenue(t: TestApp, operatorId: string) {
  const venueId = await insertVenue(t, operatorId, { status: 'live' });
  await insertShift(t, venueId, { days_of_week: EVERY_DAY, time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  const ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: EVERY_DAY });
  for (const number of ['1', '2'])
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: number, capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
  return { venueId, ruleId };
}

describe('LIVE_STREAM_PING_MS, LIVE_STREAMS_PER_ACCOUNT, LIVE_STREAMS_MAX', () => {
  it('default to a ping every 15 s, 50 streams per account and 2000 per instance, and are bounded', () => {
    expect(loadConfig({}).liveStream).toEqual({ pingMs: 15_000, perAccount: 50, max: 2000 });
    expect(loadConfig({ LIVE_STREAM_PING_MS: '100', LIVE_STREAMS_PER_ACCOUNT: '1', LIVE_STREAMS_MAX: '5' }).liveStream).toEqual({
      pingMs: 100,
      perAccount: 1,
      max: 5,
    });
    for (const [name, value] of [
      ['LIVE_STREAM_PING_MS', '60001'],
      ['LIVE_STREAM_PING_MS', '99'],
      ['LIVE_STREAMS_PER_ACCOUNT', '0'],
      ['LIVE_STREAMS_MAX', 'many'],
    ]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
    }
  });
});

describe('GET /api/my-venues/:venueId/changes', () => {
  let t: TestApp;
  let base: string;
  const streams: OpenStream[] = [];
  const open = async (venueId: string, headers: Record<string, string>) => {
    const stream = await openStream(`${base}/api/my-venues/${venueId}/changes`, headers);
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    t = await createTestApp({ LIVE_STREAM_PING_MS: '150', LIVE_STREAMS_PER_ACCOUNT: '3' });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t.close();
  });

  it('is in the OpenAPI document: 200 as text/event-stream, the errors as JSON', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const responses = doc.paths['/api/my-venues/{venueId}/changes'].get.responses as Record<string, { content: object }>;
    expect(Object.fromEntries(Object.entries(responses).map(([status, r]) => [status, Object.keys(r.content)]))).toEqual({
      200: ['text/event-stream'],
      401: ['application/json'],
      403: ['application/json'],
      404: ['application/json'],
      429: ['application/json'],
      503: ['application/json'],
    });
  });

  it('answers 401 without a token, 403 without the bookings permission and 404 for another account’s venue', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const other = await createOperator(t);
    const tablesOnly = await createStaff(t, op, { tables: 'read' });

    expect((await fetch(`${base}/api/my-venues/${venueId}/changes`)).status).toBe(401);
    const forbidden = await fetch(`${base}/api/my-venues/${venueId}/changes`, { headers: tablesOnly.headers });
    expect(forbidden.status).toBe(403);
    const foreign = await fetch(`${base}/api/my-venues/${venueId}/changes`, { headers: other.headers });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ request_id: expect.any(String), error: 'Venue not found' });
    // Nothing was left listening by the refusals.
    expect(t.ctx.liveChanges.listening(venueId)).toBe(0);
  });

  it('streams text/event-stream to a role with bookings read, scoped to its venues', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const elsewhere = await insertVenue(t, op.operatorId);
    const reader = await createStaff(t, op, { bookings: 'read' }, [venueId]);

    const stream = await open(venueId, reader.headers);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('private, no-store');
    const outside = await fetch(`${base}/api/my-venues/${elsewhere}/changes`, { headers: reader.headers });
    expect(outside.status).toBe(404);
  });

  it('sends `event: bookings` after a guest books through the public API', async () => {
    const op = await createOperator(t);
    const { venueId, ruleId } = await bookableVenue(t, op.operatorId);
    const stream = await open(venueId, op.headers);
    await stream.settle();

    const date = addDays(t.clock.now().toISOString().slice(0, 10), 7);
    const booked = await t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${venueId}/book`,
      payload: {
        access_rule_id: ruleId,
        rule_type: 'table',
        date,
        time: '19:00',
        party_size: 2,
        guest_name: 'Ada Guest',
        guest_email: 'ada@example.test',
      },
    });
    expect(booked.statusCode, booked.body).toBe(200);

    expect(await stream.nextEvent()).toEqual({ event: 'bookings', data: { venue_id: venueId } });
  });

  it('coalesces a burst of changes into few events, and tells only the venue changed', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const tableId = await insertVenueRow(t, 'venue_tables', venueId, { table_number: '9', capacity: 2, status: 'active' }, 'tbl');
    const quietOp = await createOperator(t);
    const quietVenue = await insertVenue(t, quietOp.operatorId);
    const stream = await open(venueId, op.headers);
    const quiet = await open(quietVenue, quietOp.headers);
    await stream.settle();
    await quiet.settle();
    const started = Date.now();
    for (let day = 1; day <= 9; day++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/my-venues/${venueId}/tables/block`,
        headers: op.headers,
        payload: { table_ids: [tableId], from: `2026-07-0${day}T12:00`, to: `2026-07-0${day}T13:00`, reason: 'Burst' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const burstMs = Date.now() - started;
    await stream.nextEvent();
    await new Promise((resolve) => setTimeout(resolve, 600));
    // Nine blocks: at most one event per 250 ms of the burst (plus the one its last write opens), never nine.
    expect(stream.events().length + 1).toBeLessThanOrEqual(Math.ceil(burstMs / 250) + 2);
    expect(stream.events().length + 1).toBeLessThan(9);
    // A block names its venue: another venue's stream heard nothing.
    expect(quiet.events()).toEqual([]);
  });

  it('sends a `: ping` comment every LIVE_STREAM_PING_MS', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const stream = await open(venueId, op.headers);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stream.text().match(/^: ping$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it('caps the streams one account holds (429 with Retry-After), and a closed stream frees its place', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const held = [await open(venueId, op.headers), await open(venueId, op.headers), await open(venueId, op.headers)];
    const refused = await fetch(`${base}/api/my-venues/${venueId}/changes`, { headers: op.headers });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/too many/i);
    // Another account is not affected.
    const other = await createOperator(t);
    expect((await open(await insertVenue(t, other.operatorId), other.headers)).status).toBe(200);

    held[0].close();
    await expectEventually(() => t.ctx.liveChanges.listening(venueId) === 2);
    expect((await open(venueId, op.headers)).status).toBe(200);
  });

  it('releases the listener when the client disconnects', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const before = t.ctx.liveChanges.open;
    const stream = await open(venueId, op.headers);
    expect(t.ctx.liveChanges.listening(venueId)).toBe(1);
    expect(t.ctx.liveChanges.open).toBe(before + 1);
    stream.close();
    await expectEventually(() => t.ctx.liveChanges.listening(venueId) === 0);
    expect(t.ctx.liveChanges.open).toBe(before);

    // A HEAD request (Fastify answers one for every GET route) ends at once and keeps nothing listening.
    const head = await fetch(`${base}/api/my-venues/${venueId}/changes`, { method: 'HEAD', headers: op.headers });
    expect(head.status).toBe(200);
    await expectEventually(() => t.ctx.liveChanges.listening(venueId) === 0);
    expect(t.ctx.liveChanges.open).toBe(before);
  });
});

async function expectEventually(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

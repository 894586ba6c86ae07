/** `maitred demo` gains upcoming events with ticket sales: listed publicly, with stats and a door list; a second run adds none. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo, DEMO_EMAIL, DEMO_PASSWORD } from '../../demo/demo.js';
import { createOperatorAccount } from '../team/index.js';
import { bearer, createTestApp, login, type TestApp } from '../../../test/helpers/app.js';
import { eventsApi } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('maitred demo events', () => {
  it('adds upcoming events with tickets sold, once', async () => {
    const createOperator = (input: { operatorName: string; userName: string; email: string; password: string }) =>
      createOperatorAccount(t.db, input, t.clock.now());
    const demo = await runDemo(t.app, createOperator, t.ctx);
    const events = eventsApi(t, bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD)));
    const list = (await events.get('')).json();
    expect(list.total).toBe(3);
    expect(list.data.map((e: { status: string }) => e.status)).toEqual(['approved', 'approved', 'draft']);
    expect(list.data[0]).toMatchObject({ name: 'Northern Soul All-Nighter', event_date: '2026-06-24', committed_guests: 9 });

    const widget = (await t.app.inject({ url: `/api/public/venues/${demo.venue_id}/events-widget` })).json();
    expect(widget.events.map((e: { name: string }) => e.name)).toEqual(['Northern Soul All-Nighter', 'Jazz Supper Club']);
    const stats = (await events.get(`/${list.data[0].id}/stats`)).json();
    expect(stats).toMatchObject({ total_bookings: 4, committed_guests: 9, revenue: 7200 });
    expect((await events.get(`/${list.data[0].id}/bookings`)).json().data).toHaveLength(4);

    await runDemo(t.app, createOperator, t.ctx);
    expect((await events.get('')).json().total).toBe(3);
  });
});

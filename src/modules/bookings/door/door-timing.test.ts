/**
 * The door's timing over HTTP (security round 2, findings 11 and 12): check-in by QR code or by staff
 * only inside the venue's window on the booking's service date, `force` recorded in the history, a
 * second scan answered with the time of the first; a no-show only once the booking's time has passed,
 * undone to the status it replaced within the service day; the window as a venue setting.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, TEST_NOW, type TestApp } from '../../../../test/helpers/app.js';
import { insertBooking, insertTable, slotsHeld } from '../core/bookings.test-support.js';

let t: TestApp;
beforeAll(async () => {
  // The clock moves months ahead of the sign-in: sessions outlive it.
  t = await createTestApp({ SESSION_TTL_HOURS: '8760', SESSION_MAX_DAYS: '365' });
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A live venue (London) with a 20:30 dinner on 13 December 2026 (20:30Z, GMT), two hours long, at a table. */
async function dinner(fields: Record<string, unknown> = {}) {
  const { op, venueId } = await setupVenue(t, { status: 'live' });
  const table = await insertTable(t, venueId, { table_number: '7' });
  const id = await insertBooking(t, op.operatorId, venueId, {
    starts_at: '2026-12-13T20:30:00.000Z',
    ends_at: '2026-12-13T22:30:00.000Z',
    tableIds: [table],
    ...fields,
  });
  const scan = async (force?: boolean) => {
    const { qr_token } = await t.ctx.bookings.qr(venueId, id);
    return call('POST', '/api/check-in', op.headers, { qr_token, ...(force === undefined ? {} : { force }) });
  };
  const setStatus = (status: string, force?: boolean) =>
    call('PATCH', `/api/bookings/${id}/status`, op.headers, { status, ...(force === undefined ? {} : { force }) });
  const history = async () =>
    (await call('GET', `/api/bookings/${id}`, op.headers)).json().history as { action: string; to_status: string; detail: object }[];
  return { op, venueId, id, table, scan, setStatus, history };
}

describe('check-in window (finding 11)', () => {
  it('refuses a QR scan weeks before the booking’s date, naming its date and time (409)', async () => {
    const { scan } = await dinner();
    t.clock.set('2026-11-27T20:00:00.000Z');
    const early = await scan();
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      request_id: expect.any(String),
      error: 'This booking is for 2026-12-13 at 20:30: check-in opens at 18:30 on 2026-12-13',
      status: 'confirmed',
      reason: 'too_early',
      booking_date: '2026-12-13',
      start_time: '20:30',
      opens_at: '2026-12-13T18:30:00.000Z',
      closes_at: '2026-12-13T22:30:00.000Z',
    });
  });

  it('refuses the morning of the day (07:55 for 20:30) and after the end, by QR and by staff; allows from two hours before', async () => {
    const { scan, setStatus } = await dinner();
    t.clock.set('2026-12-13T07:55:00.000Z');
    expect((await scan()).json()).toMatchObject({ reason: 'too_early' });
    expect((await setStatus('checked_in')).json()).toMatchObject({ reason: 'too_early', status: 'confirmed' });
    t.clock.set('2026-12-13T18:29:00.000Z');
    expect((await scan()).statusCode).toBe(409);
    t.clock.set('2026-12-13T22:30:00.000Z');
    const late = await setStatus('checked_in');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      reason: 'too_late',
      error: 'This booking is for 2026-12-13 at 20:30: check-in closed at 22:30 on 2026-12-13',
    });
    t.clock.set('2026-12-13T18:30:00.000Z');
    const ok = await scan();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'checked_in' });
  });

  it('answers a second scan with the time of the first: "already checked in at HH:MM" (409)', async () => {
    const { scan, setStatus } = await dinner();
    t.clock.set('2026-12-13T19:45:00.000Z');
    expect((await scan()).statusCode).toBe(200);
    t.clock.set('2026-12-13T20:10:00.000Z');
    const again = await scan();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: 'Already checked in at 19:45',
      reason: 'already_checked_in',
      checked_in_at: '2026-12-13T19:45:00.000Z',
    });
    expect((await scan(true)).json().error).toBe('Already checked in at 19:45');
    expect((await setStatus('checked_in')).json().error).toBe('Already checked in at 19:45');
  });

  it('lets staff force a check-in outside the window, recorded in the history', async () => {
    const { scan, setStatus, history, op, venueId } = await dinner();
    t.clock.set('2026-11-27T20:00:00.000Z');
    const forced = await scan(true);
    expect(forced.statusCode, forced.body).toBe(200);
    expect((await history()).at(-1)).toMatchObject({
      action: 'check_in',
      to_status: 'checked_in',
      detail: { via: 'qr', forced: 'too_early' },
    });

    const other = await insertBooking(t, op.operatorId, venueId, {
      starts_at: '2026-12-13T20:30:00.000Z',
      ends_at: '2026-12-13T22:30:00.000Z',
    });
    expect((await setStatus('checked_in', false)).statusCode).toBe(409); // the first one, already in
    const staff = await call('PATCH', `/api/bookings/${other}/status`, op.headers, { status: 'checked_in', force: true });
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json().booking.history.at(-1)).toMatchObject({ action: 'set_status', detail: { forced: 'too_early' } });
  });

  it('takes the window from the venue setting, readable and writable through the venue endpoints', async () => {
    const { scan, op, venueId } = await dinner();
    expect((await call('GET', `/api/my-venues/${venueId}`, op.headers)).json().check_in_window_minutes).toBe(120);
    expect((await call('PUT', `/api/my-venues/${venueId}`, op.headers, { check_in_window_minutes: 30 })).statusCode).toBe(200);
    expect((await call('GET', `/api/my-venues/${venueId}`, op.headers)).json().check_in_window_minutes).toBe(30);
    t.clock.set('2026-12-13T19:00:00.000Z');
    expect((await scan()).json()).toMatchObject({ reason: 'too_early', opens_at: '2026-12-13T20:00:00.000Z' });
    t.clock.set('2026-12-13T20:00:00.000Z');
    expect((await scan()).statusCode).toBe(200);
  });
});

describe('no-show (finding 12)', () => {
  it('refuses a no-show before the booking’s time (10 hours early), allows it once the time has passed or with force', async () => {
    const { setStatus, history, op, venueId } = await dinner();
    t.clock.set('2026-12-13T10:30:00.000Z');
    const early = await setStatus('no_show');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      error: 'This booking is for 2026-12-13 at 20:30: it cannot be marked as a no-show before then',
      reason: 'too_early',
      status: 'confirmed',
    });
    t.clock.set('2026-12-13T20:30:00.000Z');
    expect((await setStatus('no_show')).statusCode).toBe(200);
    expect((await history()).at(-1)).toMatchObject({ to_status: 'no_show', detail: {} });

    const other = await insertBooking(t, op.operatorId, venueId, {
      starts_at: '2026-12-14T20:30:00.000Z',
      ends_at: '2026-12-14T22:30:00.000Z',
    });
    const forced = await call('PATCH', `/api/bookings/${other}/status`, op.headers, { status: 'no_show', force: true });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json().booking.history.at(-1)).toMatchObject({ to_status: 'no_show', detail: { forced: 'too_early' } });
  });

  it('undoes a no-show to the status it replaced within the service day, taking its table back', async () => {
    const { setStatus, history, id, table } = await dinner({ status: 'approved' });
    t.clock.set('2026-12-13T21:00:00.000Z');
    expect((await setStatus('no_show')).statusCode).toBe(200);
    expect(await slotsHeld(t, id)).toEqual({});
    t.clock.set('2026-12-14T01:30:00.000Z'); // 01:30 the next morning: still its service day
    const wrong = await setStatus('confirmed');
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ reason: 'no_show_undo', previous_status: 'approved', status: 'no_show' });
    const undone = await setStatus('approved');
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().booking.status).toBe('approved');
    expect(Object.keys(await slotsHeld(t, id))).toEqual([table]);
    expect((await history()).at(-1)).toMatchObject({ action: 'undo_no_show', to_status: 'approved' });
  });

  it('refuses to undo a no-show once its service day is over (06:00 the next morning)', async () => {
    const { setStatus } = await dinner();
    t.clock.set('2026-12-13T21:00:00.000Z');
    expect((await setStatus('no_show')).statusCode).toBe(200);
    t.clock.set('2026-12-14T06:00:00.000Z');
    const late = await setStatus('confirmed');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ reason: 'service_day_over', previous_status: 'confirmed', status: 'no_show' });
  });
});

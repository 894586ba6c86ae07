import { describe, expect, it } from 'vitest';
import { checkInTiming, checkInWindow, noShowDue, noShowUndoable, serviceDayEnd, type BookingTimes } from './door-window.js';
import { localToUtc } from './venue-time.js';

const LONDON = 'Europe/London';
const at = (iso: string) => new Date(iso);

/** A table booking of `date` at `time` for `minutes`, its stay's instants as the booking engine writes them. */
function stay(date: string, time: string, minutes: number, zone = LONDON, startDate = date): BookingTimes {
  const startsAt = localToUtc(startDate, time, zone);
  return { serviceDate: date, startTime: time, startsAt, endsAt: new Date(startsAt.getTime() + minutes * 60_000) };
}

/** An event ticket or a guest-list place: a date and time, no stay of its own. */
const ticket = (date: string, time: string | null): BookingTimes => ({ serviceDate: date, startTime: time, startsAt: null, endsAt: null });

describe('check-in window', () => {
  // 20:30 BST on 15 July is 19:30Z; the stay ends at 22:30 BST (21:30Z).
  const dinner = stay('2026-07-15', '20:30', 120);

  it.each([
    ['the morning of the day (finding: checked in at 07:55)', '2026-07-15T06:55:00Z', 'too_early'],
    ['one minute before the window opens', '2026-07-15T17:29:00Z', 'too_early'],
    ['exactly when the window opens (two hours before)', '2026-07-15T17:30:00Z', 'ok'],
    ['at the booking time', '2026-07-15T19:30:00Z', 'ok'],
    ['one minute before the end', '2026-07-15T21:29:00Z', 'ok'],
    ['exactly at the end', '2026-07-15T21:30:00Z', 'too_late'],
    ['the next day', '2026-07-16T19:30:00Z', 'too_late'],
    ['weeks early (finding: a 13 December ticket on 27 November)', '2026-06-27T19:30:00Z', 'too_early'],
  ])('%s: %s is %s', (_label, now, expected) => {
    const timing = checkInTiming(at(now), dinner, LONDON, 120);
    expect(timing.ok ? 'ok' : timing.reason).toBe(expected);
  });

  it('takes the venue’s window: 30 minutes opens later, 0 only at the booking time', () => {
    expect(checkInTiming(at('2026-07-15T18:59:00Z'), dinner, LONDON, 30).ok).toBe(false);
    expect(checkInTiming(at('2026-07-15T19:00:00Z'), dinner, LONDON, 30).ok).toBe(true);
    expect(checkInTiming(at('2026-07-15T19:29:59Z'), dinner, LONDON, 0).ok).toBe(false);
    expect(checkInTiming(at('2026-07-15T19:30:00Z'), dinner, LONDON, 0).ok).toBe(true);
  });

  it('never opens before the service date: a 01:00 booking opens at midnight, not at 23:00 the day before', () => {
    const early = stay('2026-07-15', '01:00', 60);
    expect(checkInWindow(early, LONDON, 120).opensAt.toISOString()).toBe('2026-07-14T23:00:00.000Z'); // 00:00 BST
    expect(checkInTiming(at('2026-07-14T22:59:00Z'), early, LONDON, 120).ok).toBe(false);
  });

  it('a stay past midnight belongs to its service day: 01:30 after a Friday night is checked in from 23:30 Friday', () => {
    // Dated Friday 17 July, starting 01:30 on the Saturday (the grid of a service day runs past midnight).
    const late = stay('2026-07-17', '01:30', 90, LONDON, '2026-07-18');
    expect(checkInWindow(late, LONDON, 120)).toEqual({ opensAt: at('2026-07-17T22:30:00Z'), closesAt: at('2026-07-18T02:00:00Z') });
    expect(checkInTiming(at('2026-07-18T00:10:00Z'), late, LONDON, 120).ok).toBe(true);
  });

  it('a booking without an end of its own is open until the service day ends, 06:00 the next morning', () => {
    const night = ticket('2026-12-13', '22:00');
    expect(checkInWindow(night, LONDON, 120)).toEqual({ opensAt: at('2026-12-13T20:00:00Z'), closesAt: at('2026-12-14T06:00:00Z') });
    expect(checkInTiming(at('2026-12-14T02:30:00Z'), night, LONDON, 120).ok).toBe(true);
    expect(checkInTiming(at('2026-12-14T06:00:00Z'), night, LONDON, 120)).toMatchObject({ ok: false, reason: 'too_late' });
    expect(checkInTiming(at('2026-11-27T21:00:00Z'), night, LONDON, 120)).toMatchObject({ ok: false, reason: 'too_early' });
  });

  it('a booking without a time opens at its date’s local midnight', () => {
    expect(checkInWindow(ticket('2026-07-15', null), LONDON, 120).opensAt).toEqual(at('2026-07-14T23:00:00Z'));
  });

  it('counts the window in real minutes across DST changes', () => {
    // Spring forward, 29 March 2026: 01:00 GMT becomes 02:00 BST. A 03:00 BST (02:00Z) booking opens
    // two real hours earlier, 00:00Z = 00:00 GMT local midnight.
    expect(checkInWindow(stay('2026-03-29', '03:00', 60), LONDON, 120).opensAt).toEqual(at('2026-03-29T00:00:00Z'));
    // Fall back, 25 October 2026: 02:00 BST becomes 01:00 GMT. A 03:00 GMT booking (03:00Z) opens at
    // 01:00Z, which reads 01:00 GMT (the second 01:00), two real hours before.
    expect(checkInWindow(stay('2026-10-25', '03:00', 60), LONDON, 120).opensAt).toEqual(at('2026-10-25T01:00:00Z'));
    // Midnight itself moves with the offset: the 25 October service day starts at 23:00Z on the 24th.
    expect(checkInWindow(stay('2026-10-25', '00:30', 60), LONDON, 120).opensAt).toEqual(at('2026-10-24T23:00:00Z'));
    // The service day of 28 March ends at 06:00 BST on the 29th (05:00Z), after the change.
    expect(serviceDayEnd(ticket('2026-03-28', '22:00'), LONDON)).toEqual(at('2026-03-29T05:00:00Z'));
  });

  it('works in the venue’s zone, not the server’s', () => {
    const ny = stay('2026-07-15', '20:30', 120, 'America/New_York'); // 00:30Z on the 16th
    expect(checkInWindow(ny, 'America/New_York', 120).opensAt).toEqual(at('2026-07-15T22:30:00Z'));
  });
});

describe('no-show timing', () => {
  const dinner = stay('2026-07-15', '20:30', 120);

  it('is due only once the booking’s time has passed (finding: set 10 hours before)', () => {
    expect(noShowDue(at('2026-07-15T09:30:00Z'), dinner, LONDON)).toBe(false);
    expect(noShowDue(at('2026-07-15T19:29:59Z'), dinner, LONDON)).toBe(false);
    expect(noShowDue(at('2026-07-15T19:30:00Z'), dinner, LONDON)).toBe(true);
  });

  it('is undoable within the service day only, which runs past midnight to 06:00', () => {
    expect(noShowUndoable(at('2026-07-15T23:30:00Z'), dinner, LONDON)).toBe(true); // 00:30 BST
    expect(noShowUndoable(at('2026-07-16T04:59:00Z'), dinner, LONDON)).toBe(true); // 05:59 BST
    expect(noShowUndoable(at('2026-07-16T05:00:00Z'), dinner, LONDON)).toBe(false); // 06:00 BST
  });

  it('a stay ending after the turnover keeps its service day until it ends', () => {
    const allNight = stay('2026-07-15', '23:00', 8 * 60);
    expect(serviceDayEnd(allNight, LONDON)).toEqual(at('2026-07-16T06:00:00Z'));
    expect(noShowUndoable(at('2026-07-16T05:30:00Z'), allNight, LONDON)).toBe(true);
  });
});

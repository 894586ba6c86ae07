import { describe, expect, it } from 'vitest';
import { canMove, movesInto, quoteWait, slotToOffer } from './waitlist.js';

const NOW = new Date('2026-06-19T19:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const tables = [
  { id: 't2', capacity: 2, minCovers: 1 },
  { id: 't4', capacity: 4, minCovers: 1 },
  { id: 't8', capacity: 8, minCovers: 5 },
];

describe('quoteWait', () => {
  it('is 0 when a table that fits is free for the whole stay', () => {
    expect(quoteWait({ now: NOW, partySize: 2, durationMinutes: 90, tables, stays: [] })).toBe(0);
  });

  it('waits for the first fitting table to free, rounded up to 5 minutes', () => {
    const stays = [
      { tableIds: ['t2'], startsAt: at(-60), endsAt: at(22) },
      { tableIds: ['t4'], startsAt: at(-30), endsAt: at(41) },
    ];
    expect(quoteWait({ now: NOW, partySize: 2, durationMinutes: 90, tables, stays })).toBe(25);
    // Three guests do not fit the two-top: the four-top frees at +41.
    expect(quoteWait({ now: NOW, partySize: 3, durationMinutes: 90, tables, stays })).toBe(45);
  });

  it('skips a gap too short for the stay (a booking coming up)', () => {
    const stays = [
      { tableIds: ['t4'], startsAt: at(-30), endsAt: at(10) },
      { tableIds: ['t4'], startsAt: at(60), endsAt: at(150) },
    ];
    const small = [{ id: 't4', capacity: 4, minCovers: 1 }];
    expect(quoteWait({ now: NOW, partySize: 4, durationMinutes: 90, tables: small, stays })).toBe(150);
    expect(quoteWait({ now: NOW, partySize: 4, durationMinutes: 45, tables: small, stays })).toBe(10);
  });

  it('counts the parties ahead in line', () => {
    const stays = [{ tableIds: ['t2'], startsAt: at(-60), endsAt: at(20) }];
    const two = [{ id: 't2', capacity: 2, minCovers: 1 }];
    expect(quoteWait({ now: NOW, partySize: 2, durationMinutes: 60, tables: two, stays })).toBe(20);
    expect(quoteWait({ now: NOW, partySize: 2, durationMinutes: 60, tables: two, stays, ahead: [2] })).toBe(80);
    // A party ahead that no table seats takes nothing.
    expect(quoteWait({ now: NOW, partySize: 2, durationMinutes: 60, tables: two, stays, ahead: [9] })).toBe(20);
  });

  it('is null when no single table seats the party (min covers too)', () => {
    expect(quoteWait({ now: NOW, partySize: 9, durationMinutes: 90, tables, stays: [] })).toBeNull();
    expect(quoteWait({ now: NOW, partySize: 5, durationMinutes: 90, tables: tables.slice(0, 2), stays: [] })).toBeNull();
    expect(quoteWait({ now: NOW, partySize: 2, durationMinutes: 90, tables: [], stays: [] })).toBeNull();
  });

  it('ignores stays that ended and tables it does not know', () => {
    const stays = [
      { tableIds: ['t2'], startsAt: at(-120), endsAt: at(-10) },
      { tableIds: ['gone'], startsAt: at(-10), endsAt: at(100) },
    ];
    expect(quoteWait({ now: NOW, partySize: 2, durationMinutes: 90, tables, stays })).toBe(0);
  });
});

describe('slotToOffer', () => {
  const slots = [
    { time: '18:00', access_rule_id: 'r1', available: true },
    { time: '19:00', access_rule_id: 'r1', available: false },
    { time: '19:30', access_rule_id: 'r2', available: true },
    { time: '21:00', access_rule_id: 'r1', available: true },
  ];
  it('offers the earliest available slot in the window, inclusive', () => {
    expect(slotToOffer(slots, { from: '19:00', to: '20:00' })).toEqual({ time: '19:30', access_rule_id: 'r2' });
    expect(slotToOffer(slots, { from: '21:00', to: '21:00' })).toEqual({ time: '21:00', access_rule_id: 'r1' });
    expect(slotToOffer(slots, { from: '19:00', to: '19:15' })).toBeNull();
  });
  it('skips the times held out to others', () => {
    expect(slotToOffer(slots, { from: '18:00', to: '22:00' }, new Set(['18:00']))).toEqual({ time: '19:30', access_rule_id: 'r2' });
  });
});

describe('status moves', () => {
  it('allows the documented moves only', () => {
    expect(canMove('walk_in', 'waiting', 'notified')).toBe(true);
    expect(canMove('walk_in', 'seated', 'removed')).toBe(false);
    expect(canMove('walk_in', 'waiting', 'offered')).toBe(false);
    expect(canMove('online', 'offered', 'accepting')).toBe(true);
    expect(canMove('online', 'expired', 'offered')).toBe(false);
    expect(movesInto('online', 'removed').sort()).toEqual(['offered', 'waiting']);
    expect(movesInto('walk_in', 'seated').sort()).toEqual(['notified', 'waiting']);
  });
});

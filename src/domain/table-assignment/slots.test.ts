import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { SLOT_MINUTES, slotKeyOf, slotKeysOf, slotStartOf, staysOverlap, staysShareSlot } from './slots.js';

const at = (time: string) => new Date(`2025-06-14T${time}:00Z`);
const stay = (from: string, to: string) => ({ startsAt: at(from), endsAt: at(to) });
const startsOf = (from: string, to: string) => slotKeysOf(at(from), at(to)).map((key) => slotStartOf(key).toISOString().slice(11, 16));

describe('slot keys', () => {
  it('counts whole quarter hours since the epoch, flooring before it', () => {
    expect(SLOT_MINUTES).toBe(15);
    expect(slotKeyOf(new Date('1970-01-01T00:00:00Z'))).toBe(0);
    expect(slotKeyOf(new Date('1970-01-01T00:14:59.999Z'))).toBe(0);
    expect(slotKeyOf(new Date('1970-01-01T00:15:00Z'))).toBe(1);
    expect(slotKeyOf(new Date('1969-12-31T23:50:00Z'))).toBe(-1);
    expect(Number.isInteger(slotKeyOf(at('19:10')))).toBe(true);
  });

  it.each([
    [
      'an off-grid stay claims every slot it touches',
      '19:10',
      '21:10',
      ['19:00', '19:15', '19:30', '19:45', '20:00', '20:15', '20:30', '20:45', '21:00'],
    ],
    ['the end is exclusive', '19:00', '21:00', ['19:00', '19:15', '19:30', '19:45', '20:00', '20:15', '20:30', '20:45']],
    ['a stay inside one slot claims it', '19:05', '19:10', ['19:00']],
    ['a stay ending one minute past the grid claims the next slot', '19:00', '19:16', ['19:00', '19:15']],
    ['an empty stay claims nothing', '19:00', '19:00', []],
    ['a reversed stay claims nothing', '21:00', '19:00', []],
  ])('%s', (_name, from, to, expected) => {
    expect(startsOf(from, to)).toEqual(expected);
  });

  it('spans midnight without a gap', () => {
    const keys = slotKeysOf(new Date('2025-06-14T23:30:00Z'), new Date('2025-06-15T00:30:00Z'));
    expect(keys.map((key) => slotStartOf(key).toISOString())).toEqual([
      '2025-06-14T23:30:00.000Z',
      '2025-06-14T23:45:00.000Z',
      '2025-06-15T00:00:00.000Z',
      '2025-06-15T00:15:00.000Z',
    ]);
  });

  it.each([
    ['Asia/Kathmandu (+05:45)', 'Asia/Kathmandu', '2025-06-14T19:15'],
    ['Pacific/Chatham (+12:45)', 'Pacific/Chatham', '2025-06-14T19:45'],
    ['Europe/London on the autumn change', 'Europe/London', '2025-10-26T01:30'],
    ['America/St_Johns (−02:30)', 'America/St_Johns', '2025-06-14T20:00'],
  ])('slots begin on venue-local quarter hours: %s', (_name, zone, local) => {
    const instant = DateTime.fromISO(local, { zone }).toJSDate();
    expect(slotStartOf(slotKeyOf(instant)).getTime()).toBe(instant.getTime());
  });

  it('refuses an invalid date', () => {
    expect(() => slotKeysOf(new Date('nonsense'), at('20:00'))).toThrow(RangeError);
  });
});

describe('stay conflicts', () => {
  it.each([
    ['back to back', stay('19:00', '20:00'), stay('20:00', '21:00'), false, false],
    ['overlapping', stay('19:00', '20:30'), stay('20:00', '21:00'), true, true],
    ['one inside the other', stay('18:00', '23:00'), stay('19:00', '20:00'), true, true],
    ['identical', stay('19:00', '21:00'), stay('19:00', '21:00'), true, true],
    ['apart', stay('17:00', '18:00'), stay('19:00', '20:00'), false, false],
    // Slot rounding: no shared minute, yet both claim the 21:00 slot.
    ['sharing only a quarter hour', stay('19:00', '21:05'), stay('21:10', '22:00'), false, true],
    ['an off-grid end before the next quarter', stay('19:00', '21:00'), stay('21:05', '22:00'), false, false],
    ['an empty stay', stay('20:00', '20:00'), stay('19:00', '21:00'), false, false],
  ])('%s', (_name, a, b, overlap, shareSlot) => {
    expect(staysOverlap(a, b)).toBe(overlap);
    expect(staysOverlap(b, a)).toBe(overlap);
    expect(staysShareSlot(a, b)).toBe(shareSlot);
    expect(staysShareSlot(b, a)).toBe(shareSlot);
  });
});

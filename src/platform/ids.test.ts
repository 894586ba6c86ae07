import { describe, expect, it } from 'vitest';
import { newId, orderedId, randomChars, sequentialId } from './ids.js';

describe('ids', () => {
  it('draws 128 random bits per id, never the same bytes twice across refills of the pool', () => {
    // 4 KB of pool is 256 ids of 16 bytes: 2,000 ids refill it several times, mid-id included.
    const ids = Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? sequentialId('bkh') : newId('bkg')));
    expect(new Set(ids).size).toBe(ids.length);
    const random = ids.filter((id) => id.startsWith('bkg_')).map((id) => id.slice(4));
    for (const body of random) expect(body).toMatch(/^[a-z2-7]{26}$/);
    // The random parts share no 8-character run: a pool slice handed out twice would.
    const runs = new Set<string>();
    for (const body of random) {
      const run = body.slice(0, 8);
      expect(runs.has(run)).toBe(false);
      runs.add(run);
    }
  });

  it('orders sequential ids by when they were made', () => {
    const ids = Array.from({ length: 500 }, () => sequentialId('bkh'));
    expect([...ids].sort()).toEqual(ids);
  });

  it('orders ids of rows written at volume by the millisecond they were made, with 128 random bits after it', async () => {
    const first = Array.from({ length: 300 }, () => orderedId('bkg'));
    await new Promise((resolve) => setTimeout(resolve, 3));
    const later = Array.from({ length: 300 }, () => orderedId('bkg'));
    expect(new Set([...first, ...later]).size).toBe(600);
    for (const id of [...first, ...later]) expect(id).toMatch(/^bkg_[0-9a-z]{9}[a-z2-7]{26}$/);
    // Every id made a millisecond or more later sorts after every earlier one, in byte order.
    const lastEarlier = [...first].sort().at(-1)!;
    expect(later.every((id) => id > lastEarlier)).toBe(true);
    // The time part is the millisecond, in base 36.
    const made = parseInt(later[0]!.slice(4, 13), 36);
    expect(Math.abs(made - Date.now())).toBeLessThan(1000);
  });

  it('draws characters of the alphabet, each as often as the others', () => {
    const alphabet = 'ACDEFGHJKMNPQRTUVWXY34679';
    const drawn = Array.from({ length: 20_000 }, () => randomChars(alphabet, 6)).join('');
    expect(drawn).toHaveLength(120_000);
    const counts = new Map<string, number>();
    for (const c of drawn) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...alphabet].sort());
    // 4,800 expected each. A byte taken modulo 25 without redrawing gives the first six characters 11/256
    // each and the rest 10/256 (5,156 against 4,688): a chi-square near 200. For a uniform draw (24 degrees
    // of freedom) it is above 51 one time in a thousand.
    const expected = drawn.length / alphabet.length;
    const chi = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(51);
  });
});

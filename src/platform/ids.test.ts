import { describe, expect, it } from 'vitest';
import { newId, randomChars, sequentialId } from './ids.js';

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

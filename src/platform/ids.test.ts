import { describe, expect, it } from 'vitest';
import { newId, sequentialId } from './ids.js';

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
});

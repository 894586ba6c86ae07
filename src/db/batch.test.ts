import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunked, chunkedByPowersOfTwo } from './batch.js';

describe('chunked', () => {
  it('slices rows in order, each slice at most the size', () => {
    expect(chunked([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunked([], 2)).toEqual([]);
  });
});

describe('chunkedByPowersOfTwo', () => {
  it('slices 37 rows as 32, 4 and 1, and caps slices at the largest power of two within the size', () => {
    const rows = Array.from({ length: 37 }, (_, i) => i);
    expect(chunkedByPowersOfTwo(rows).map((slice) => slice.length)).toEqual([32, 4, 1]);
    expect(chunkedByPowersOfTwo(rows, 10).map((slice) => slice.length)).toEqual([8, 8, 8, 8, 4, 1]);
    expect(chunkedByPowersOfTwo([])).toEqual([]);
  });

  it('keeps every row in order, in slices of a power of two no larger than the size, largest first', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 1200 }), fc.integer({ min: 1, max: 600 }), (rows, size) => {
        const slices = chunkedByPowersOfTwo(rows, size);
        expect(slices.flat()).toEqual(rows);
        for (const [i, slice] of slices.entries()) {
          expect(slice.length).toBeGreaterThan(0);
          expect(slice.length).toBeLessThanOrEqual(size);
          expect(Number.isInteger(Math.log2(slice.length))).toBe(true);
          if (i > 0) expect(slice.length).toBeLessThanOrEqual(slices[i - 1]!.length);
        }
        // The lengths a batch of any size uses: never more distinct ones than powers of two up to the size.
        expect(new Set(slices.map((slice) => slice.length)).size).toBeLessThanOrEqual(Math.floor(Math.log2(size)) + 1);
      }),
    );
  });
});

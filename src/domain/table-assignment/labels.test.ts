/**
 * Table labels in natural order (candidates.ts `compareTableLabels`): the fast path for "letters then
 * digits" labels orders every pair exactly as the collator with its code-point tie-break does, and a list
 * sorts the same either way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTableLabels } from './candidates.js';

const collator = new Intl.Collator('en', { numeric: true });
const byCollator = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** Labels as venues write them: "T12", "t07", "12", "Bar 3", "C1+C2", and some arbitrary text. */
const label = fc.oneof(
  fc
    .tuple(fc.constantFrom('', 'T', 't', 'C', 'Bar', 'BAR', 'A', 'Z'), fc.stringMatching(/^\d{1,18}$/))
    .map(([prefix, digits]) => prefix + digits),
  fc.stringMatching(/^[A-Za-z ]{0,4}\d{0,4}[+ -]?\d{0,3}$/),
  fc.string({ maxLength: 6 }),
);

describe('compareTableLabels', () => {
  it('orders every pair as the collator and the code-point tie-break do', () => {
    fc.assert(
      fc.property(label, label, (a, b) => {
        expect(Math.sign(compareTableLabels(a, b))).toBe(Math.sign(byCollator(a, b)));
      }),
      { numRuns: 5000 },
    );
  });

  it('sorts a floor the same way, numbers by value and equal values by their text', () => {
    const labels = ['T10', 'T9', 'T09', 'T1', '12', '2', 'C3', 'c3', 'T100', 'Bar 2', 'T9'];
    expect([...labels].sort(compareTableLabels)).toEqual([...labels].sort(byCollator));
    expect([...labels].sort(compareTableLabels).slice(0, 2)).toEqual(['2', '12']);
    fc.assert(
      fc.property(fc.array(label, { maxLength: 30 }), (list) => {
        expect([...list].sort(compareTableLabels)).toEqual([...list].sort(byCollator));
      }),
      { numRuns: 500 },
    );
  });
});

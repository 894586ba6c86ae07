/**
 * Stays their owner only ever appends to: a booking batch's copy of one day's stays, to which each
 * placement adds its own once it is written. What is derived from such stays (the engine's index, the
 * holds per table the assignment reads) is built once and then grown by each stay appended since,
 * instead of being built again from every stay of the day for every placement of the batch.
 */
import type { Occupancy } from './types.js';

type StayOf = Occupancy[number];

const appendOnly = new WeakSet<Occupancy>();

/** Marks `stays` as only ever appended to by its owner (never reordered, replaced or shortened); returns it. */
export function appendOnlyStays<T extends Occupancy>(stays: T): T {
  appendOnly.add(stays);
  return stays;
}

export const isAppendOnly = (stays: Occupancy): boolean => appendOnly.has(stays);

interface Grown<T> {
  value: T;
  /** How many of the stays `value` holds, and the last of them (what tells an append from any other change). */
  count: number;
  last: StayOf | undefined;
}

/**
 * Values derived from append-only stays, one per stays: `build` from every stay the first time, then
 * `add` with each stay appended since the last call. Should the stays have changed otherwise after all
 * (fewer of them, or another stay where the last one was), the value is built again.
 */
export class GrownFromStays<T> {
  readonly #values = new WeakMap<Occupancy, Grown<T>>();

  constructor(
    private readonly build: (stays: Occupancy) => T,
    private readonly add: (value: T, stay: StayOf) => void,
  ) {}

  of(stays: Occupancy): T {
    const grown = this.#values.get(stays);
    if (!grown || stays.length < grown.count || (grown.count > 0 && stays[grown.count - 1] !== grown.last)) {
      const value = this.build(stays);
      this.#values.set(stays, { value, count: stays.length, last: stays.at(-1) });
      return value;
    }
    for (let i = grown.count; i < stays.length; i++) this.add(grown.value, stays[i]);
    grown.count = stays.length;
    grown.last = stays.at(-1);
    return grown.value;
  }
}

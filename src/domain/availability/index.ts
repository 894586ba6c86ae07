/** The availability engine's public surface: compute a day's slots, look ahead, re-check one slot, list free tables. */
export { computeAvailability, nextAvailableDates, slotFree } from './engine.js';
export * from './types.js';

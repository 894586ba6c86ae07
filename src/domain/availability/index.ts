/** The availability engine's public surface: compute a day's slots, look ahead, re-check one slot, list free tables. */
export { availabilityWithNextDates, computeAvailability, freeCandidates, nextAvailableDates, slotFree } from './engine.js';
export { withSmartDuration } from './prepare.js';
export * from './types.js';

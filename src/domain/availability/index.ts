/** The availability engine's public surface: a day's slots with the next available dates, re-check one slot, list free tables. */
export { availabilityWithNextDates, bookingOpensAt, computeAvailability, freeCandidates, slotFree } from './engine.js';
export { appendOnlyStays, GrownFromStays, isAppendOnly } from './appended.js';
export { withSmartDuration } from './prepare.js';
export { clockMinutes } from './service-day.js';
export * from './types.js';

/**
 * Table assignment: the 15-minute slot model the occupancy constraint uses, choosing tables for a new
 * stay, and planning the daily smart-table pass. Pure: no clock, no database.
 */
export { slotKeyOf, slotKeysOf } from './slots.js';
export { type SeatingCandidate } from './candidates.js';
export { type TableHolds, type TableStay, addHold, chooseTables, rankCandidates } from './assign.js';
export { planReassignment, type BlockReason, type PlannedMove, type ReassignableStay } from './reassign.js';

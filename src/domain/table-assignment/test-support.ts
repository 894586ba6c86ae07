/** Builders shared by this folder's tests: tables, combinations and stays on one fixed UTC day. */
import { type FloorCombination, type FloorTable } from './candidates.js';
import { type Stay } from './slots.js';

export const DAY = '2025-06-14';

/** An instant on the test day (`HH:MM`, UTC). */
export const at = (time: string) => new Date(`${DAY}T${time}:00Z`);

export const stay = (from: string, to: string): Stay => ({ startsAt: at(from), endsAt: at(to) });

export const hold = (tableId: string, from: string, to: string) => ({ tableId, ...stay(from, to) });

/** Table `t<number>` with that number, active, in area `main` unless told otherwise. */
export const table = (number: string, capacity: number, fields: Partial<FloorTable> = {}): FloorTable => ({
  id: `t${number}`,
  tableNumber: number,
  capacity,
  status: 'active',
  seatingAreaId: 'main',
  ...fields,
});

export const combination = (id: string, ...tableIds: string[]): FloorCombination => ({ id, tableIds });

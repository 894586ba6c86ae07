/**
 * The seatings a party could take: each active table on its own and each combination of active tables,
 * narrowed to those that seat the party and that the booking's seating restriction permits. Assignment
 * and the reassignment pass both start from this list, so both judge "fits" and "permitted" alike.
 */

/** A table of the floorplan, as assignment needs it. */
export interface FloorTable {
  id: string;
  /** Orders candidates of equal merit ("2" before "10"), as staff read the floorplan. */
  tableNumber: string;
  /** Maximum covers. */
  capacity: number;
  /** Only `active` tables are seated. */
  status: string;
  seatingAreaId: string | null;
}

/** A combination of tables booked together; it seats the sum of its members' capacities. */
export interface FloorCombination {
  id: string;
  tableIds: readonly string[];
}

/** One way to seat a party: a single table (its id is the table's) or a combination (the combination's id). */
export interface SeatingCandidate {
  id: string;
  kind: 'table' | 'combination';
  /** The tables the stay occupies, in floorplan order. */
  tableIds: readonly string[];
  capacity: number;
  /** Seating area of each member table, in the order of `tableIds`. */
  areaIds: readonly (string | null)[];
  /** The table number, or a combination's member numbers joined by `+`: the last tie-break. */
  label: string;
}

/**
 * An access rule's seating restriction. A table is permitted when it lies in one of the areas or is listed
 * itself; a combination when every member is. With both lists empty (or absent) nothing is restricted:
 * an empty restriction would otherwise make the rule unbookable, which no operator means by it.
 */
export interface SeatingRestriction {
  seatingAreaIds?: readonly string[];
  tableIds?: readonly string[];
}

const collator = new Intl.Collator('en', { numeric: true });

/** Natural order of table numbers, with a code-point tie-break so that no two different labels compare equal. */
export function compareTableLabels(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

function tablePermitted(table: FloorTable, restriction: SeatingRestriction | undefined): boolean {
  const areas = restriction?.seatingAreaIds ?? [];
  const listed = restriction?.tableIds ?? [];
  if (areas.length === 0 && listed.length === 0) return true;
  return listed.includes(table.id) || (table.seatingAreaId !== null && areas.includes(table.seatingAreaId));
}

function candidateOf(id: string, kind: SeatingCandidate['kind'], members: FloorTable[]): SeatingCandidate {
  const ordered = [...members].sort((a, b) => compareTableLabels(a.tableNumber, b.tableNumber));
  return {
    id,
    kind,
    tableIds: ordered.map((table) => table.id),
    capacity: ordered.reduce((sum, table) => sum + table.capacity, 0),
    areaIds: ordered.map((table) => table.seatingAreaId),
    label: ordered.map((table) => table.tableNumber).join('+'),
  };
}

/**
 * The candidates that seat `partySize` under the restriction. A combination counts only when it names at
 * least two distinct tables, all of them known and active: a combination with a missing or inactive
 * member cannot be sat at as a whole. A party size that is not a positive number has no candidates.
 */
export function seatingCandidates(
  tables: readonly FloorTable[],
  combinations: readonly FloorCombination[],
  options: { partySize: number; restriction?: SeatingRestriction },
): SeatingCandidate[] {
  const { partySize, restriction } = options;
  if (!(partySize >= 1)) return [];
  const usable = new Map(tables.filter((table) => table.status === 'active').map((table) => [table.id, table]));
  const candidates: SeatingCandidate[] = [];
  for (const table of usable.values()) {
    if (tablePermitted(table, restriction)) candidates.push(candidateOf(table.id, 'table', [table]));
  }
  for (const combination of combinations) {
    const ids = [...new Set(combination.tableIds)];
    const members = ids.map((id) => usable.get(id));
    if (ids.length < 2 || members.some((table) => table === undefined)) continue;
    const known = members as FloorTable[];
    if (known.every((table) => tablePermitted(table, restriction))) candidates.push(candidateOf(combination.id, 'combination', known));
  }
  return candidates.filter((candidate) => candidate.capacity >= partySize);
}

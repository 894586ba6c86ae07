/**
 * The floorplan document the editor changes, pure: tables keyed by a stable local key (the table's id
 * when it was loaded, a made-up key when drawn here), the floor's combinations by table keys, and the
 * canvas's other items kept as they came. `docFromServer` reads a floor into a document; `planSave`
 * says which API calls bring the server from what it holds to the document.
 */
import { defaultSize, isRound } from './geometry.js';

export interface PlanTable {
  key: string;
  number: string;
  minCovers: number;
  maxCovers: number;
  shape: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  areaId: string | null;
  /** Fields of the canvas item the editor does not change (type, size …), sent back as they came. */
  extra: Record<string, unknown>;
}

export interface PlanCombo {
  name: string;
  /** Table keys, sorted. */
  tables: string[];
}

export interface PlanDoc {
  tables: PlanTable[];
  combos: PlanCombo[];
  /** Canvas items that are not tables (labels, walls …). */
  decor: Record<string, unknown>[];
}

/** What the server holds for one floor: its canvas, its tables and the venue's combinations. */
export interface ServerFloor {
  canvas: Record<string, unknown>[];
  tables: { id: string; table_number: string; capacity: number; min_covers: number; seating_area_id: string | null }[];
  combos: { id: string; name: string; table_ids: string[] }[];
}

/** Which server table each document key stands for (a key drawn here has none until it is saved). */
export type KeyIds = Map<string, string>;

const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const comboKey = (name: string, keys: string[]) => `${name}\u0000${[...keys].sort().join('\u0000')}`;

/**
 * The document of a floor. `ids` maps keys to ids: a table a key already names keeps that key (so undo
 * and redo still find it), others are keyed by their id and added to `ids`.
 */
export function docFromServer(server: ServerFloor, ids: KeyIds): PlanDoc {
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  const byNumber = new Map(server.tables.map((table) => [table.table_number, table]));
  const tables: PlanTable[] = [];
  const decor: Record<string, unknown>[] = [];
  for (const item of server.canvas) {
    if (item.type !== 'table') {
      decor.push(item);
      continue;
    }
    const table = byNumber.get(String(item.tableNumber));
    if (!table) continue;
    const key = keyOf.get(table.id) ?? table.id;
    ids.set(key, table.id);
    const { tableNumber: _n, minCovers: _min, maxCovers: _max, x, y, width, height, rotation, shape, ...extra } = item;
    const size = defaultSize(shape as string | null, item.size as string | null);
    const index = tables.length;
    tables.push({
      key,
      number: table.table_number,
      minCovers: table.min_covers,
      maxCovers: table.capacity,
      shape: isRound(shape as string | null) ? 'round' : 'rect',
      // A table placed without a position gets a spot on a simple grid.
      x: num(x, 40 + (index % 6) * 160),
      y: num(y, 60 + Math.floor(index / 6) * 140),
      width: num(width, size.width),
      height: num(height, size.height),
      rotation: num(rotation, 0),
      areaId: table.seating_area_id,
      extra,
    });
  }
  const onFloor = new Set(server.tables.map((table) => table.id));
  const combos = server.combos
    .filter((combo) => combo.table_ids.length > 1 && combo.table_ids.every((id) => onFloor.has(id)))
    .map((combo) => ({ name: combo.name, tables: combo.table_ids.map((id) => keyOf.get(id) ?? id).sort() }));
  return { tables, combos, decor };
}

/** The canvas item of a table, as `PUT /floors/:id` takes it. */
export function canvasItem(table: PlanTable): Record<string, unknown> {
  return {
    ...table.extra,
    type: 'table',
    tableNumber: table.number,
    minCovers: table.minCovers,
    maxCovers: table.maxCovers,
    shape: table.shape,
    x: table.x,
    y: table.y,
    width: table.width,
    height: table.height,
    rotation: table.rotation,
  };
}

export interface SavePlan {
  /** Combinations of this floor the document no longer has (deleted first: deleting a table prunes them). */
  deleteCombos: string[];
  /** Tables removed from the floor: deleted, not only taken off the canvas. */
  deleteTables: string[];
  /** Renumbered tables (by id), before the canvas is saved, because the canvas names tables by number. */
  renames: { id: string; number: string }[];
  /** The whole canvas: creates the new tables, moves, resizes, reshapes and sets covers. */
  canvas: Record<string, unknown>[];
  /** After the canvas: tables (by key) whose seating area changed, grouped by area. */
  areas: { areaId: string | null; keys: string[] }[];
  /** After the canvas (new tables have ids then): combinations to create, by table keys. */
  createCombos: PlanCombo[];
}

export function planSave(server: ServerFloor, doc: PlanDoc, ids: KeyIds): SavePlan {
  const serverById = new Map(server.tables.map((table) => [table.id, table]));
  const existing = (key: string) => {
    const id = ids.get(key);
    return id === undefined ? undefined : serverById.get(id);
  };
  const kept = new Set(doc.tables.map((table) => existing(table.key)?.id).filter((id): id is string => id !== undefined));
  const deleteTables = server.tables.filter((table) => !kept.has(table.id)).map((table) => table.id);
  const renames = doc.tables.flatMap((table) => {
    const current = existing(table.key);
    return current && current.table_number !== table.number ? [{ id: current.id, number: table.number }] : [];
  });

  const areaChanges = new Map<string | null, string[]>();
  for (const table of doc.tables) {
    if ((existing(table.key)?.seating_area_id ?? null) === table.areaId) continue;
    areaChanges.set(table.areaId, [...(areaChanges.get(table.areaId) ?? []), table.key]);
  }

  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  const docKeys = new Set(doc.tables.map((table) => table.key));
  const wanted = new Map(
    doc.combos.filter((combo) => combo.tables.every((key) => docKeys.has(key))).map((combo) => [comboKey(combo.name, combo.tables), combo]),
  );
  const held = new Set<string>();
  const deleteCombos: string[] = [];
  for (const combo of server.combos) {
    if (!combo.table_ids.every((id) => serverById.has(id))) continue; // another floor's (or spanning floors): not this editor's
    const key = comboKey(
      combo.name,
      combo.table_ids.map((id) => keyOf.get(id) ?? id),
    );
    if (wanted.has(key) && !held.has(key)) held.add(key);
    else deleteCombos.push(combo.id);
  }
  const createCombos = [...wanted].filter(([key]) => !held.has(key)).map(([, combo]) => combo);

  return {
    deleteCombos,
    deleteTables,
    renames,
    canvas: [...doc.decor, ...doc.tables.map(canvasItem)],
    areas: [...areaChanges].map(([areaId, keys]) => ({ areaId, keys })),
    createCombos,
  };
}

// ---- edits ----

export const updateTable = (doc: PlanDoc, key: string, change: Partial<PlanTable>): PlanDoc => ({
  ...doc,
  tables: doc.tables.map((table) => (table.key === key ? { ...table, ...change } : table)),
});

/** Removes tables and the combinations that named them. */
export const removeTables = (doc: PlanDoc, keys: string[]): PlanDoc => ({
  ...doc,
  tables: doc.tables.filter((table) => !keys.includes(table.key)),
  combos: doc.combos.filter((combo) => !combo.tables.some((key) => keys.includes(key))),
});

export const addCombo = (doc: PlanDoc, name: string, keys: string[]): PlanDoc => ({
  ...doc,
  combos: [...doc.combos, { name, tables: [...keys].sort() }],
});

export const removeCombo = (doc: PlanDoc, index: number): PlanDoc => ({
  ...doc,
  combos: doc.combos.filter((_, i) => i !== index),
});

/** The default name of a combination: its tables' numbers joined by `+`. */
export const comboName = (doc: PlanDoc, keys: string[]) =>
  doc.tables
    .filter((table) => keys.includes(table.key))
    .map((table) => table.number)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .join('+');

/**
 * After a save: keys whose table is not (or no longer) on the server learn the id of the table that now
 * carries their number (a table drawn here, or one deleted and brought back by undo).
 */
export function learnIds(server: ServerFloor, doc: PlanDoc, ids: KeyIds): void {
  const onServer = new Set(server.tables.map((table) => table.id));
  const byNumber = new Map(server.tables.map((table) => [table.table_number, table.id]));
  for (const table of doc.tables) {
    const id = ids.get(table.key);
    if (id !== undefined && onServer.has(id)) continue;
    const found = byNumber.get(table.number);
    if (found) ids.set(table.key, found);
  }
}

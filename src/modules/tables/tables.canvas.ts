/**
 * The floor canvas and the tables stay one truth: a floor stores its items as sent, each table item
 * linked to the id of the table it stands for; the table row owns number, type, covers, position, shape
 * and size. Reading a floor renders the stored items with the linked tables' current values, so a change
 * made through the table routes (renumber, set-type, capacity, delete) shows on the canvas at once.
 */
import type { Selectable } from 'kysely';
import type { CanvasItem } from './tables.schemas.js';
import type { VenueTablesTable } from './tables.table.js';

export interface StoredCanvasEntry {
  item: CanvasItem;
  /** Set on table items: the table the item stands for. */
  table_id?: string;
}

type TableRow = Selectable<VenueTablesTable>;

export const isTableItem = (item: { type: string }) => item.type === 'table';

export const tableNumberOf = (value: string | number) => String(value).trim();

export function parseCanvas(text: string): StoredCanvasEntry[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? (value as StoredCanvasEntry[]) : [];
}

/** A table item showing the table's values; keys the client sent that the table does not own are kept. */
export function tableItem(table: TableRow, item: CanvasItem = { type: 'table' }): CanvasItem {
  const out: CanvasItem = { ...item, type: 'table' };
  // A client that sent the number as a number gets it back as it sent it while it still matches.
  out.tableNumber =
    item.tableNumber !== undefined && tableNumberOf(item.tableNumber) === table.table_number ? item.tableNumber : table.table_number;
  out.tableType = table.table_type as CanvasItem['tableType'];
  out.minCovers = table.min_covers;
  out.maxCovers = table.capacity;
  for (const key of ['shape', 'size', 'x', 'y'] as const) {
    const value = table[key];
    if (value !== null) (out as Record<string, unknown>)[key] = value;
    else if (key in item) (out as Record<string, unknown>)[key] = null;
  }
  return out;
}

/**
 * The public canvas_data of a floor: stored items in order, table items refreshed from their tables;
 * items of tables that were deleted or moved to another floor are left out, and tables placed on the
 * floor without an item (none are, normally) are appended so the canvas never hides a table.
 */
export function renderCanvas(entries: StoredCanvasEntry[], tablesOnFloor: TableRow[]): CanvasItem[] {
  const byId = new Map(tablesOnFloor.map((table) => [table.id, table]));
  const shown = new Set<string>();
  const items: CanvasItem[] = [];
  for (const entry of entries) {
    if (!entry.table_id) {
      items.push(entry.item);
      continue;
    }
    const table = byId.get(entry.table_id);
    if (!table || shown.has(table.id)) continue;
    shown.add(table.id);
    items.push(tableItem(table, entry.item));
  }
  for (const table of tablesOnFloor) if (!shown.has(table.id)) items.push(tableItem(table));
  return items;
}

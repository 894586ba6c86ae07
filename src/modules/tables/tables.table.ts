/** The floorplan's tables (migration 0004). Booleans are 0/1 integers, JSON is text, instants are UTC ISO text. */

export interface SeatingAreasTable {
  id: string;
  venue_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface FloorsTable {
  id: string;
  venue_id: string;
  name: string;
  sort_order: number;
  /**
   * JSON array of stored canvas entries `{ item, table_id? }`: the item as the client sent it, and for
   * table items the id of the table it stands for (tables.canvas.ts renders the public canvas_data).
   */
  canvas_data: string;
  created_at: string;
  updated_at: string;
}

export interface VenueTablesTable {
  id: string;
  venue_id: string;
  /** Unique per venue: the floor canvas links its items to tables by number. */
  table_number: string;
  /** Maximum covers. */
  capacity: number;
  min_covers: number;
  /** `active` or `inactive`. */
  status: string;
  /** `standard`, `low`, `high`, `booth` or `bar`. */
  table_type: string;
  seating_area_id: string | null;
  floor_id: string | null;
  x: number | null;
  y: number | null;
  shape: string | null;
  size: string | null;
  created_at: string;
  updated_at: string;
}

export interface TableBlocksTable {
  id: string;
  venue_id: string;
  table_id: string;
  blocked_from: string;
  blocked_to: string;
  reason: string;
  created_at: string;
  updated_at: string;
}

export interface TableCombinationsTable {
  id: string;
  venue_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface TableCombinationTablesTable {
  combination_id: string;
  table_id: string;
}

export interface SmartTableSettingsTable {
  venue_id: string;
  reassign_enabled: number;
  reassign_time: string;
  duration_enabled: number;
  /** Written by the daily reassignment pass only. */
  reassign_last_run: string | null;
  updated_at: string;
}

export interface PricelistsTable {
  id: string;
  venue_id: string;
  name: string;
  default_price_pence: number;
  created_at: string;
  updated_at: string;
}

export interface PricelistPricesTable {
  pricelist_id: string;
  table_id: string;
  price_pence: number;
}

export interface FloorTables {
  seating_areas: SeatingAreasTable;
  floors: FloorsTable;
  venue_tables: VenueTablesTable;
  table_blocks: TableBlocksTable;
  table_combinations: TableCombinationsTable;
  table_combination_tables: TableCombinationTablesTable;
  smart_table_settings: SmartTableSettingsTable;
  pricelists: PricelistsTable;
  pricelist_prices: PricelistPricesTable;
}

export const TABLE_TYPES = ['standard', 'low', 'high', 'booth', 'bar'] as const;
export const TABLE_STATUSES = ['active', 'inactive'] as const;
export const DEFAULT_BLOCK_REASON = 'Venue Reserved';

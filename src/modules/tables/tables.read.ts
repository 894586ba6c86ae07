/**
 * What the booking engine reads of a venue's floorplan, one query per table family: tables,
 * combinations with their members, seating areas, smart-table settings, blocks over a window, and the
 * prices of a price list. Shapes are the API's (tables as `toTable`, combinations with `table_ids`).
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { SMART_TABLE_DEFAULTS } from './pricing.service.js';
import { byTableNumber, toTable } from './tables.repository.js';

export type TableRecord = ReturnType<typeof toTable>;

export interface CombinationRecord {
  id: string;
  name: string;
  table_ids: string[];
  combined_capacity: number;
}

export interface SmartTableRecord {
  reassign_enabled: boolean;
  reassign_time: string;
  reassign_last_run: string | null;
  duration_enabled: boolean;
}

export interface FloorplanRecords {
  tables: TableRecord[];
  combinations: CombinationRecord[];
  areas: { id: string; name: string }[];
  smart: SmartTableRecord;
}

export async function floorplanRecords(db: Conn, venueId: string): Promise<FloorplanRecords> {
  const k = kyselyOf(db);
  const [tables, combos, members, areas, smart] = await Promise.all([
    k.selectFrom('venue_tables').selectAll().where('venue_id', '=', venueId).execute(),
    k.selectFrom('table_combinations').select(['id', 'name']).where('venue_id', '=', venueId).orderBy('id').execute(),
    k
      .selectFrom('table_combination_tables as m')
      .innerJoin('table_combinations as c', 'c.id', 'm.combination_id')
      .select(['m.combination_id', 'm.table_id'])
      .where('c.venue_id', '=', venueId)
      .execute(),
    k.selectFrom('seating_areas').select(['id', 'name']).where('venue_id', '=', venueId).orderBy('id').execute(),
    k.selectFrom('smart_table_settings').selectAll().where('venue_id', '=', venueId).executeTakeFirst(),
  ]);
  const sorted = tables.sort(byTableNumber);
  const capacity = new Map(sorted.map((t) => [t.id, t.capacity]));
  const order = new Map(sorted.map((t, index) => [t.id, index]));
  const byCombo = new Map<string, string[]>();
  for (const member of members) {
    if (!capacity.has(member.table_id)) continue;
    byCombo.set(member.combination_id, [...(byCombo.get(member.combination_id) ?? []), member.table_id]);
  }
  const settings = smart ?? SMART_TABLE_DEFAULTS;
  return {
    tables: sorted.map(toTable),
    combinations: combos.map((combo) => {
      const tableIds = (byCombo.get(combo.id) ?? []).sort((a, b) => order.get(a)! - order.get(b)!);
      return {
        id: combo.id,
        name: combo.name,
        table_ids: tableIds,
        combined_capacity: tableIds.reduce((sum, id) => sum + capacity.get(id)!, 0),
      };
    }),
    areas,
    smart: {
      reassign_enabled: Boolean(settings.reassign_enabled),
      reassign_time: settings.reassign_time,
      reassign_last_run: settings.reassign_last_run,
      duration_enabled: Boolean(settings.duration_enabled),
    },
  };
}

export interface BlockRecord {
  table_id: string;
  blocked_from: string;
  blocked_to: string;
}

/** Blocks overlapping [fromUtc, toUtc). */
export async function blocksBetween(db: Conn, venueId: string, fromUtc: Date, toUtc: Date): Promise<BlockRecord[]> {
  return kyselyOf(db)
    .selectFrom('table_blocks')
    .select(['table_id', 'blocked_from', 'blocked_to'])
    .where('venue_id', '=', venueId)
    .where('blocked_from', '<', toUtc.toISOString())
    .where('blocked_to', '>', fromUtc.toISOString())
    .execute();
}

/** A price list's default and per-table prices (null when the list is not the venue's). */
export async function pricelistPrices(
  db: Conn,
  venueId: string,
  pricelistId: string,
): Promise<{ defaultPence: number; byTable: Map<string, number> } | null> {
  const k = kyselyOf(db);
  const list = await k
    .selectFrom('pricelists')
    .select('default_price_pence')
    .where('venue_id', '=', venueId)
    .where('id', '=', pricelistId)
    .executeTakeFirst();
  if (!list) return null;
  const prices = await k
    .selectFrom('pricelist_prices')
    .select(['table_id', 'price_pence'])
    .where('pricelist_id', '=', pricelistId)
    .execute();
  return { defaultPence: list.default_price_pence, byTable: new Map(prices.map((p) => [p.table_id, p.price_pence])) };
}

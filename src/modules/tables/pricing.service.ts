/**
 * Price lists (a default deposit/min-spend per table plus per-table overrides) and the venue's
 * smart-table settings (daily reassignment pass and party-size durations).
 */
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import { notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import type { Clock } from '../../platform/clock.js';
import type { References } from '../../platform/references.js';
import { byName, requiredText } from '../../platform/text.js';
import type { PricelistUpdateBody, SmartTablesBody } from './tables.schemas.js';
import { byTableNumber } from './tables.repository.js';

/** Venue defaults (decisions): reassignment off at 06:00, durations off, never run. */
export const SMART_TABLE_DEFAULTS = { reassign_enabled: 0, reassign_time: '06:00', duration_enabled: 0, reassign_last_run: null } as const;

export function createPricingService(deps: { db: Db; clock: Clock; references: References }) {
  const db = deps.db.kysely;
  const now = () => deps.clock.now().toISOString();

  async function pricelistOf(venueId: string, id: string) {
    const row = await db.selectFrom('pricelists').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Price list');
    return row;
  }

  const toSettings = (row: {
    reassign_enabled: number;
    reassign_time: string;
    duration_enabled: number;
    reassign_last_run: string | null;
  }) => ({
    reassign_enabled: Boolean(row.reassign_enabled),
    reassign_time: row.reassign_time,
    reassign_last_run: row.reassign_last_run,
    duration_enabled: Boolean(row.duration_enabled),
  });

  async function settingsRow(venueId: string) {
    return (
      (await db.selectFrom('smart_table_settings').selectAll().where('venue_id', '=', venueId).executeTakeFirst()) ?? SMART_TABLE_DEFAULTS
    );
  }

  return {
    async listPricelists(venueId: string) {
      const lists = await db.selectFrom('pricelists').selectAll().where('venue_id', '=', venueId).execute();
      const prices = await db
        .selectFrom('pricelist_prices as p')
        .innerJoin('pricelists as l', 'l.id', 'p.pricelist_id')
        .innerJoin('venue_tables as t', 't.id', 'p.table_id')
        .select(['p.pricelist_id', 'p.table_id', 't.table_number', 'p.price_pence'])
        .where('l.venue_id', '=', venueId)
        .where('t.venue_id', '=', venueId)
        .execute();
      const byList = new Map<string, typeof prices>();
      for (const price of prices) {
        const group = byList.get(price.pricelist_id);
        if (group) group.push(price);
        else byList.set(price.pricelist_id, [price]);
      }
      return lists.sort(byName).map((list) => ({
        id: list.id,
        name: list.name,
        default_price_pence: list.default_price_pence,
        table_prices: (byList.get(list.id) ?? [])
          .sort(byTableNumber)
          .map(({ table_id, table_number, price_pence }) => ({ table_id, table_number, price_pence })),
      }));
    },

    async createPricelist(venueId: string, body: { name: string; default_price_pence?: number }) {
      const id = newId('prl');
      const at = now();
      await db
        .insertInto('pricelists')
        .values({
          id,
          venue_id: venueId,
          name: requiredText(body.name, 'name'),
          default_price_pence: body.default_price_pence ?? 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return id;
    },

    async updatePricelist(venueId: string, id: string, body: PricelistUpdateBody) {
      const current = await pricelistOf(venueId, id);
      await db
        .updateTable('pricelists')
        .set({
          name: body.name === undefined ? current.name : requiredText(body.name, 'name'),
          default_price_pence: body.default_price_pence ?? current.default_price_pence,
          updated_at: now(),
        })
        .where('venue_id', '=', venueId)
        .where('id', '=', id)
        .execute();
    },

    /** Clears its overrides and detaches it from access rules (and table profiles) before it goes. */
    async deletePricelist(venueId: string, id: string) {
      const at = now();
      await withTransaction(deps.db, async (trx) => {
        const found = await trx
          .selectFrom('pricelists')
          .select('id')
          .where('venue_id', '=', venueId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!found) throw notFound('Price list');
        await trx.deleteFrom('pricelist_prices').where('pricelist_id', '=', id).execute();
        // Access rules and table profiles that used it stop naming it.
        await deps.references.repoint(trx, 'pricelist', venueId, new Map([[id, null]]), at);
        await trx.deleteFrom('pricelists').where('id', '=', id).execute();
      });
    },

    /** Sets a table's override; null or an empty string clears it back to the list's default. */
    async setTablePrice(venueId: string, id: string, tableId: string, price: number | null | '') {
      await pricelistOf(venueId, id);
      const table = await db
        .selectFrom('venue_tables')
        .select('id')
        .where('venue_id', '=', venueId)
        .where('id', '=', tableId)
        .executeTakeFirst();
      if (!table) throw notFound('Table');
      if (price === null || price === '') {
        await db.deleteFrom('pricelist_prices').where('pricelist_id', '=', id).where('table_id', '=', tableId).execute();
        return;
      }
      await db
        .insertInto('pricelist_prices')
        .values({ pricelist_id: id, table_id: tableId, price_pence: price })
        .onConflict((oc) => oc.columns(['pricelist_id', 'table_id']).doUpdateSet({ price_pence: price }))
        .execute();
    },

    async getSmartTables(venueId: string) {
      return toSettings(await settingsRow(venueId));
    },

    /** Updates the fields sent; reassign_last_run is the platform's and never taken from the body. */
    async saveSmartTables(venueId: string, body: SmartTablesBody) {
      const current = await settingsRow(venueId);
      const values = {
        reassign_enabled: toFlag(body.reassign_enabled) ?? current.reassign_enabled,
        reassign_time: body.reassign_time ?? current.reassign_time,
        duration_enabled: toFlag(body.duration_enabled) ?? current.duration_enabled,
        updated_at: now(),
      };
      await db
        .insertInto('smart_table_settings')
        .values({ venue_id: venueId, ...values, reassign_last_run: null })
        .onConflict((oc) => oc.column('venue_id').doUpdateSet(values))
        .execute();
      return toSettings(await settingsRow(venueId));
    },
  };
}

export type PricingService = ReturnType<typeof createPricingService>;

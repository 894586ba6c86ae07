/** Table combinations: two or more of a venue's tables booked together, with their combined capacity. */
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { byName, requiredText } from '../../platform/text.js';
import { byTableNumber, tablesOf } from './tables.repository.js';

export function createCombosService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const now = () => clock.now().toISOString();

  return {
    async list(venueId: string) {
      const combos = await db.kysely.selectFrom('table_combinations').selectAll().where('venue_id', '=', venueId).execute();
      const members = await db.kysely
        .selectFrom('table_combination_tables as m')
        .innerJoin('table_combinations as c', 'c.id', 'm.combination_id')
        .innerJoin('venue_tables as t', 't.id', 'm.table_id')
        .select(['m.combination_id', 't.id', 't.table_number', 't.capacity'])
        .where('c.venue_id', '=', venueId)
        .where('t.venue_id', '=', venueId)
        .execute();
      const byCombo = new Map<string, typeof members>();
      for (const member of members) {
        const group = byCombo.get(member.combination_id);
        if (group) group.push(member);
        else byCombo.set(member.combination_id, [member]);
      }
      return combos.sort(byName).map((combo) => {
        const tables = (byCombo.get(combo.id) ?? []).sort(byTableNumber);
        return {
          id: combo.id,
          name: combo.name,
          table_ids: tables.map((t) => t.id),
          // Computed on read, so a capacity change of a member shows at once.
          combined_capacity: tables.reduce((sum, t) => sum + t.capacity, 0),
        };
      });
    },

    async create(venueId: string, body: { name: string; table_ids: string[] }) {
      const name = requiredText(body.name, 'name');
      if (new Set(body.table_ids).size < 2) throw badRequest('A combination needs two or more different tables');
      const id = newId('cmb');
      const at = now();
      // Members are looked up inside the transaction, so a table deleted meanwhile is a 404, not a foreign-key error.
      return withTransaction(db, async (trx) => {
        const tables = await tablesOf(trx, venueId, body.table_ids);
        await trx.insertInto('table_combinations').values({ id, venue_id: venueId, name, created_at: at, updated_at: at }).execute();
        await trx
          .insertInto('table_combination_tables')
          .values(tables.map((table) => ({ combination_id: id, table_id: table.id })))
          .execute();
        return { id, combined_capacity: tables.reduce((sum, t) => sum + t.capacity, 0) };
      });
    },

    async remove(venueId: string, id: string) {
      const deleted = await db.kysely
        .deleteFrom('table_combinations')
        .where('venue_id', '=', venueId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('Table combination');
    },
  };
}

export type CombosService = ReturnType<typeof createCombosService>;

/** Seating areas of a venue (the bar, the terrace): tables belong to at most one. */
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { byName, requiredText } from '../../platform/text.js';
import { findArea } from './tables.repository.js';

export function createAreasService(deps: { db: Db; clock: Clock; references: References }) {
  const { db, clock, references } = deps;
  const now = () => clock.now().toISOString();

  return {
    async list(venueId: string) {
      const rows = await db.kysely.selectFrom('seating_areas').select(['id', 'name']).where('venue_id', '=', venueId).execute();
      return rows.sort(byName);
    },

    async create(venueId: string, rawName: string) {
      const name = requiredText(rawName, 'name');
      const id = newId('area');
      const at = now();
      await db.kysely.insertInto('seating_areas').values({ id, venue_id: venueId, name, created_at: at, updated_at: at }).execute();
      return { id, name };
    },

    async rename(venueId: string, id: string, rawName: string) {
      await findArea(db, venueId, id);
      await db.kysely
        .updateTable('seating_areas')
        .set({ name: requiredText(rawName, 'name'), updated_at: now() })
        .where('venue_id', '=', venueId)
        .where('id', '=', id)
        .execute();
    },

    /** Detaches the area's tables first, and drops it from shifts and access rules. */
    async remove(venueId: string, id: string) {
      const at = now();
      await withTransaction(db, async (trx) => {
        await findArea(trx, venueId, id);
        await trx
          .updateTable('venue_tables')
          .set({ seating_area_id: null, updated_at: at })
          .where('venue_id', '=', venueId)
          .where('seating_area_id', '=', id)
          .execute();
        await references.repoint(trx, 'seating_area', venueId, new Map([[id, null]]), at);
        await trx.deleteFrom('seating_areas').where('venue_id', '=', venueId).where('id', '=', id).execute();
      });
    },
  };
}

export type AreasService = ReturnType<typeof createAreasService>;

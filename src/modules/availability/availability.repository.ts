/**
 * The availability module's side of cross-module references: checking that ids sent in a body name rows
 * of the venue (through the reference registry, whichever module owns them), the repointers that keep
 * shifts' and access rules' references in step when tables, areas, price lists, policies, bundles or
 * profiles are deleted or replaced, and the venue's bookable flag.
 */
import { parseIdArray, remapIds, type IdRemap } from '../../db/json.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { badRequest } from '../../platform/errors.js';
import type { ReferenceKind, References } from '../../platform/references.js';
import { setBookable } from '../venues/index.js';

/** 400 naming the field when any id is not a row of the venue. */
export async function assertReferences(
  references: References,
  db: Conn,
  venueId: string,
  checks: { field: string; kind: ReferenceKind; ids: (string | null | undefined)[] }[],
): Promise<void> {
  for (const check of checks) {
    const ids = check.ids.filter((id): id is string => typeof id === 'string');
    const missing = await references.missing(db, check.kind, venueId, ids);
    if (missing.length > 0) throw badRequest(`${check.field} refers to something that is not at this venue: ${missing.join(', ')}`);
  }
}

/** The venue is bookable on discovery surfaces exactly while it has an access rule. */
export async function syncBookable(db: Conn, venueId: string, now: string): Promise<void> {
  const row = await kyselyOf(db)
    .selectFrom('access_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('venue_id', '=', venueId)
    .executeTakeFirstOrThrow();
  await setBookable(db, venueId, Number(row.n) > 0, now);
}

type ListColumn<Row> = { [K in keyof Row]: Row[K] extends string ? K : never }[keyof Row];

/** Applies a remap to JSON id-list columns of rows; only changed rows are returned, with their new lists. */
function remapLists<Row extends { id: string }>(rows: Row[], columns: ListColumn<Row>[], remap: IdRemap) {
  return rows.flatMap((row) => {
    const lists = columns.map((column) => remapIds(parseIdArray(row[column] as string), remap));
    if (!lists.some((list) => list.changed)) return [];
    return [{ id: row.id, values: Object.fromEntries(columns.map((column, i) => [column, JSON.stringify(lists[i].ids)])) }];
  });
}

/** Re-points one id column of the venue's access rules (stamping `updated_at` when `now` is given). */
async function repointRules(
  db: Conn,
  column: 'pricelist_id' | 'payment_policy_id' | 'list_profile_id' | 'table_profile_id',
  venueId: string,
  remap: IdRemap,
  now?: string,
): Promise<void> {
  for (const [from, to] of remap) {
    if (from === to) continue;
    let update = kyselyOf(db).updateTable('access_rules').set(column, to).where(column, '=', from).where('venue_id', '=', venueId);
    if (now) update = update.set('updated_at', now);
    await update.execute();
  }
}

/** Registers how shifts and access rules follow the rows they point at. */
export function registerAvailabilityReferences(references: References): void {
  references.own('time_period', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('time_periods')
      .select(['id', 'name as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );

  // A deleted table or area leaves every list (mapped to null); a copied floorplan is re-pointed at the copies.
  references.onRepoint('table', async (db, venueId, remap, now) => {
    const shifts = await kyselyOf(db).selectFrom('shifts').select(['id', 'table_ids']).where('venue_id', '=', venueId).execute();
    for (const { id, values } of remapLists(shifts, ['table_ids'], remap)) {
      await kyselyOf(db)
        .updateTable('shifts')
        .set({ ...values, updated_at: now })
        .where('id', '=', id)
        .execute();
    }
    const rules = await kyselyOf(db).selectFrom('access_rules').select(['id', 'table_ids']).where('venue_id', '=', venueId).execute();
    for (const { id, values } of remapLists(rules, ['table_ids'], remap)) {
      await kyselyOf(db)
        .updateTable('access_rules')
        .set({ ...values, updated_at: now })
        .where('id', '=', id)
        .execute();
    }
  });
  references.onRepoint('seating_area', async (db, venueId, remap, now) => {
    const shifts = await kyselyOf(db).selectFrom('shifts').select(['id', 'seating_area_ids']).where('venue_id', '=', venueId).execute();
    for (const { id, values } of remapLists(shifts, ['seating_area_ids'], remap)) {
      await kyselyOf(db)
        .updateTable('shifts')
        .set({ ...values, updated_at: now })
        .where('id', '=', id)
        .execute();
    }
    const rules = await kyselyOf(db)
      .selectFrom('access_rules')
      .select(['id', 'seating_area_ids', 'guest_pick_area_ids'])
      .where('venue_id', '=', venueId)
      .execute();
    for (const { id, values } of remapLists(rules, ['seating_area_ids', 'guest_pick_area_ids'], remap)) {
      await kyselyOf(db)
        .updateTable('access_rules')
        .set({ ...values, updated_at: now })
        .where('id', '=', id)
        .execute();
    }
  });
  references.onRepoint('bundle', async (db, venueId, remap) => {
    const rules = await kyselyOf(db).selectFrom('access_rules').select(['id', 'bundle_ids']).where('venue_id', '=', venueId).execute();
    for (const { id, values } of remapLists(rules, ['bundle_ids'], remap)) {
      await kyselyOf(db).updateTable('access_rules').set(values).where('id', '=', id).execute();
    }
  });
  references.onRepoint('pricelist', (db, venueId, remap, now) => repointRules(db, 'pricelist_id', venueId, remap, now));
  references.onRepoint('payment_policy', async (db, venueId, remap) => {
    await repointRules(db, 'payment_policy_id', venueId, remap);
    for (const [from, to] of remap) {
      if (from === to) continue;
      await kyselyOf(db)
        .updateTable('shifts')
        .set('payment_policy_id', to)
        .where('payment_policy_id', '=', from)
        .where('venue_id', '=', venueId)
        .execute();
    }
  });
  references.onRepoint('list_profile', (db, venueId, remap) => repointRules(db, 'list_profile_id', venueId, remap));
  references.onRepoint('table_profile', (db, venueId, remap) => repointRules(db, 'table_profile_id', venueId, remap));
}

/**
 * Data helpers shared by the availability and tables modules: checking that ids sent in a body name rows
 * of the venue, rewriting the floorplan ids that shifts and access rules hold when tables or areas go
 * (or are copied), and the venue's bookable flag.
 */
import { rewriteProfileFloorplanIds } from '../profiles/references.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../platform/errors.js';

type Q = Kysely<Database>;

/**
 * What a reference may point at. Profiles, payment policies and bundles belong to other modules whose
 * Kysely types may not exist yet, so every look-up goes through an untyped handle on the same connection.
 */
export const REFERENCE_TARGETS = {
  seating_area: { table: 'seating_areas' },
  table: { table: 'venue_tables' },
  pricelist: { table: 'pricelists' },
  time_period: { table: 'time_periods' },
  payment_policy: { table: 'payment_policies' },
  bundle: { table: 'bundles' },
  list_profile: { table: 'profiles', family: 'list' },
  table_profile: { table: 'profiles', family: 'table' },
} as const satisfies Record<string, { table: string; family?: string }>;

export type ReferenceKind = keyof typeof REFERENCE_TARGETS;

const loose = (db: Q) => db as unknown as Kysely<any>;

/** The ids among `ids` that are not rows of the venue (of the right family for profiles). */
export async function missingReferences(db: Q, kind: ReferenceKind, venueId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const target: { table: string; family?: string } = REFERENCE_TARGETS[kind];
  let query = loose(db).selectFrom(target.table).select('id').where('venue_id', '=', venueId).where('id', 'in', unique);
  if (target.family) query = query.where('family', '=', target.family);
  const found = new Set((await query.execute()).map((row: { id: string }) => row.id));
  return unique.filter((id) => !found.has(id));
}

/** 400 naming the field when any id is not a row of the venue. */
export async function assertReferences(
  db: Q,
  venueId: string,
  checks: { field: string; kind: ReferenceKind; ids: (string | null | undefined)[] }[],
): Promise<void> {
  for (const check of checks) {
    const ids = check.ids.filter((id): id is string => typeof id === 'string');
    const missing = await missingReferences(db, check.kind, venueId, ids);
    if (missing.length > 0) throw badRequest(`${check.field} refers to something that is not at this venue: ${missing.join(', ')}`);
  }
}

/** A venue's rows of a table with their `name` (or another text column such as `table_number`) as key. */
export async function keyedRows(db: Q, table: string, venueId: string, options: { key?: string; family?: string } = {}): Promise<{ id: string; key: string }[]> {
  let query = loose(db)
    .selectFrom(table)
    .select(['id', `${options.key ?? 'name'} as key`])
    .where('venue_id', '=', venueId)
    .orderBy('created_at')
    .orderBy('id');
  if (options.family) query = query.where('family', '=', options.family);
  return query.execute();
}

/** Key → id of a venue's rows, for copy-from matching; the oldest row wins when several share a key. */
export async function idsByKey(db: Q, table: string, venueId: string, options: { key?: string; family?: string } = {}): Promise<Map<string, string>> {
  const byKey = new Map<string, string>();
  for (const row of await keyedRows(db, table, venueId, options)) if (!byKey.has(row.key)) byKey.set(row.key, row.id);
  return byKey;
}

export const parseIds = (text: string | null | undefined): string[] => {
  if (!text) return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/**
 * Old id → new id, or null to drop it. Ids absent from the map are kept as they are.
 */
export type IdRemap = ReadonlyMap<string, string | null>;

function remapList(text: string, remap: IdRemap | undefined): { text: string; changed: boolean } {
  if (!remap || remap.size === 0) return { text, changed: false };
  const ids = parseIds(text);
  let changed = false;
  const out: string[] = [];
  for (const id of ids) {
    if (!remap.has(id)) {
      out.push(id);
      continue;
    }
    changed = true;
    const next = remap.get(id);
    if (next && !out.includes(next)) out.push(next);
  }
  return { text: JSON.stringify(out), changed };
}

/**
 * Rewrites the table and seating-area ids held by the venue's shifts and access rules: a deleted table
 * or area leaves every list (map to null), a copied floorplan is re-pointed at the copies.
 */
export async function rewriteFloorplanReferences(
  db: Q,
  venueId: string,
  remap: { tables?: IdRemap; areas?: IdRemap },
  now: string,
): Promise<void> {
  const shifts = await db.selectFrom('shifts').select(['id', 'seating_area_ids', 'table_ids']).where('venue_id', '=', venueId).execute();
  for (const shift of shifts) {
    const areas = remapList(shift.seating_area_ids, remap.areas);
    const tables = remapList(shift.table_ids, remap.tables);
    if (!areas.changed && !tables.changed) continue;
    await db
      .updateTable('shifts')
      .set({ seating_area_ids: areas.text, table_ids: tables.text, updated_at: now })
      .where('id', '=', shift.id)
      .execute();
  }
  const rules = await db
    .selectFrom('access_rules')
    .select(['id', 'seating_area_ids', 'guest_pick_area_ids', 'table_ids'])
    .where('venue_id', '=', venueId)
    .execute();
  for (const rule of rules) {
    const areas = remapList(rule.seating_area_ids, remap.areas);
    const pick = remapList(rule.guest_pick_area_ids, remap.areas);
    const tables = remapList(rule.table_ids, remap.tables);
    if (!areas.changed && !pick.changed && !tables.changed) continue;
    await db
      .updateTable('access_rules')
      .set({ seating_area_ids: areas.text, guest_pick_area_ids: pick.text, table_ids: tables.text, updated_at: now })
      .where('id', '=', rule.id)
      .execute();
  }
  // Table profiles name tables and areas too (inside their settings): keep them in step.
  await rewriteProfileFloorplanIds(db, venueId, remap);
}

/** The venue is bookable on discovery surfaces exactly while it has an access rule. */
export async function syncBookable(db: Q, venueId: string, now: string): Promise<void> {
  const row = await db
    .selectFrom('access_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('venue_id', '=', venueId)
    .executeTakeFirstOrThrow();
  const flag = Number(row.n) > 0 ? 1 : 0;
  await db
    .updateTable('venues')
    .set({ is_bookable: flag, updated_at: now })
    .where('id', '=', venueId)
    .where('is_bookable', '!=', flag)
    .execute();
}

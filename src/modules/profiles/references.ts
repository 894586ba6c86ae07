/**
 * Keeping references to profiles, policies, bundles and promo codes consistent when those rows are
 * deleted or replaced (delete side effects and copy-from). Some of the referring tables belong to other
 * modules (access_rules, shifts, ticket_types), so they are reached through a loosely typed handle: their
 * Kysely types may not be declared yet, and ticket_types may not exist at all.
 */
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';

/** The database or a transaction. */
export type Executor = Kysely<Database>;

export const loose = (db: Executor) => db as unknown as Kysely<any>;

/** Whether `table` exists in the connection's schema (on PostgreSQL: the search_path). */
export async function tableExists(db: Executor, engine: Engine, table: string): Promise<boolean> {
  if (engine === 'postgres') {
    const { rows } = await sql<{ oid: string | null }>`select to_regclass(${table})::text as oid`.execute(db);
    return Boolean(rows[0]?.oid);
  }
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  return rows.length > 0;
}

export async function columnExists(db: Executor, engine: Engine, table: string, column: string): Promise<boolean> {
  if (engine === 'postgres') {
    const { rows } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(db);
    return rows.length > 0;
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table}) where name = ${column}`.execute(db);
  return rows.length > 0;
}

/**
 * Re-points an id column: each old id to its new id, or to null when mapped to null. Scoped to the venue
 * unless `venueId` is null (a table without venue_id; ids are globally unique, so that stays safe).
 */
export async function repointColumn(db: Executor, table: string, column: string, venueId: string | null, mapping: ReadonlyMap<string, string | null>) {
  for (const [from, to] of mapping) {
    if (from === to) continue;
    let query = loose(db).updateTable(table).set({ [column]: to }).where(column, '=', from);
    if (venueId !== null) query = query.where('venue_id', '=', venueId);
    await query.execute();
  }
}

export const parseIdArray = (text: string | null | undefined): string[] => {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

/** Rewrites the ids of a venue's JSON-array column: mapped to a new id, kept when unmapped, dropped on null. */
export async function rewriteJsonIdColumn(db: Executor, table: string, column: string, venueId: string, mapping: ReadonlyMap<string, string | null>) {
  if (mapping.size === 0) return;
  const rows: { id: string; value: string | null }[] = await loose(db)
    .selectFrom(table)
    .select(['id', `${column} as value`])
    .where('venue_id', '=', venueId)
    .execute();
  for (const row of rows) {
    const ids = parseIdArray(row.value);
    if (!ids.some((id) => mapping.has(id))) continue;
    const next = [...new Set(ids.flatMap((id) => (mapping.has(id) ? (mapping.get(id) ? [mapping.get(id) as string] : []) : [id])))];
    await loose(db).updateTable(table).set({ [column]: JSON.stringify(next) }).where('id', '=', row.id).execute();
  }
}

/** The same for an id array kept inside the profiles' settings JSON (`bundle_ids`, `promo_code_ids`). */
export async function rewriteProfileSettingIds(db: Executor, venueId: string, key: string, mapping: ReadonlyMap<string, string | null>) {
  if (mapping.size === 0) return;
  const rows = await db.selectFrom('profiles').select(['id', 'settings']).where('venue_id', '=', venueId).execute();
  for (const row of rows) {
    const settings = JSON.parse(row.settings) as Record<string, unknown>;
    const ids = Array.isArray(settings[key]) ? (settings[key] as string[]) : [];
    if (!ids.some((id) => mapping.has(id))) continue;
    settings[key] = [...new Set(ids.flatMap((id) => (mapping.has(id) ? (mapping.get(id) ? [mapping.get(id) as string] : []) : [id])))];
    await db.updateTable('profiles').set({ settings: JSON.stringify(settings) }).where('id', '=', row.id).execute();
  }
}

/**
 * For the tables module: when tables or seating areas are deleted (mapped to null) or replaced by copies,
 * the table profiles' `table_ids`, `seating_area_ids` and `guest_pick_area_ids` follow, as the access
 * rules' and shifts' lists do.
 */
export async function rewriteProfileFloorplanIds(
  db: Executor,
  venueId: string,
  remap: { tables?: ReadonlyMap<string, string | null>; areas?: ReadonlyMap<string, string | null> },
) {
  if (remap.tables) await rewriteProfileSettingIds(db, venueId, 'table_ids', remap.tables);
  if (remap.areas) {
    await rewriteProfileSettingIds(db, venueId, 'seating_area_ids', remap.areas);
    await rewriteProfileSettingIds(db, venueId, 'guest_pick_area_ids', remap.areas);
  }
}

/**
 * Old ids → new ids by a matching key (name, code), for re-pointing references after a scope was
 * replaced; ids whose key has no counterpart map to null (the reference is cleared).
 */
export function mappingByKey(oldRows: { id: string; key: string }[], newRows: { id: string; key: string }[]): Map<string, string | null> {
  const byKey = new Map<string, string>();
  for (const row of newRows) if (!byKey.has(row.key)) byKey.set(row.key, row.id);
  return new Map(oldRows.map((row) => [row.id, byKey.get(row.key) ?? null]));
}

/** Everything that points at a venue's payment policies: access rules, shifts and profiles. */
export async function repointPaymentPolicies(db: Executor, venueId: string, mapping: ReadonlyMap<string, string | null>) {
  await repointColumn(db, 'access_rules', 'payment_policy_id', venueId, mapping);
  await repointColumn(db, 'shifts', 'payment_policy_id', venueId, mapping);
  await repointColumn(db, 'profiles', 'payment_policy_id', venueId, mapping);
}

/** Everything that points at a venue's bundles: access rules' and profiles' bundle_ids. */
export async function repointBundles(db: Executor, venueId: string, mapping: ReadonlyMap<string, string | null>) {
  await rewriteJsonIdColumn(db, 'access_rules', 'bundle_ids', venueId, mapping);
  await rewriteProfileSettingIds(db, venueId, 'bundle_ids', mapping);
}

/**
 * Everything that points at a venue's admission groups: list profiles and, once the events module has
 * created it, ticket_types.admission_rule_group_id (ticket types have no venue_id; group ids are global).
 */
export async function repointAdmissionGroups(db: Executor, engine: Engine, venueId: string, mapping: ReadonlyMap<string, string | null>) {
  await repointColumn(db, 'profiles', 'admission_rule_group_id', venueId, mapping);
  if (mapping.size > 0 && (await columnExists(db, engine, 'ticket_types', 'admission_rule_group_id'))) {
    await repointColumn(db, 'ticket_types', 'admission_rule_group_id', null, mapping);
  }
}

/**
 * Everything that points at a venue's profiles: access rules (list and table profiles) and, once the
 * events module has created it, ticket_types.ticket_profile_id (skipped while that table is absent).
 */
export async function repointProfiles(db: Executor, engine: Engine, venueId: string, mapping: ReadonlyMap<string, string | null>, families: Map<string, string>) {
  const byColumn = (family: string) => new Map([...mapping].filter(([id]) => families.get(id) === family));
  await repointColumn(db, 'access_rules', 'list_profile_id', venueId, byColumn('list'));
  await repointColumn(db, 'access_rules', 'table_profile_id', venueId, byColumn('table'));
  const tickets = byColumn('ticket');
  if (tickets.size > 0 && (await columnExists(db, engine, 'ticket_types', 'ticket_profile_id'))) {
    await repointColumn(db, 'ticket_types', 'ticket_profile_id', null, tickets);
  }
}

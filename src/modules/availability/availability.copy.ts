/**
 * The availability module's copy-from scopes: `shifts`, `access-rules`, and `availability` (time periods,
 * blackouts, shifts and access rules together). Each replaces the target venue's rows of the scope with
 * copies of the source's inside the caller's transaction. References inside the copied scope point at
 * the copies (shift → time period); references outside it are matched in the target venue by name
 * (time periods, areas, price lists, payment policies, profiles of the same family, bundles) or by table
 * number, and cleared when the target has no match.
 */
import type { Selectable } from 'kysely';
import type { Tx } from '../../db/transaction.js';
import type { CopyRequest, CopyScope } from '../../platform/copy-scopes.js';
import { newId } from '../../platform/ids.js';
import { idsByKey, keyedRows, parseIds, syncBookable } from './availability.repository.js';
import type { AccessRulesTable, ShiftsTable } from './availability.table.js';

type IdMatch = (id: string | null) => string | null;

/** Source id → target id through a shared key (name, table number); null when the target has none. */
async function matchBy(trx: Tx, table: string, key: 'name' | 'table_number', source: string, target: string, family?: string): Promise<IdMatch> {
  const sourceRows = await keyedRows(trx, table, source, { key, family });
  const targetIds = await idsByKey(trx, table, target, { key, family });
  const map = new Map(sourceRows.map((row) => [row.id, targetIds.get(row.key) ?? null]));
  return (id) => (id === null ? null : (map.get(id) ?? null));
}

const matchList = (match: IdMatch, text: string) =>
  JSON.stringify([...new Set(parseIds(text).map(match).filter((id): id is string => id !== null))]);

async function copyTimePeriods(trx: Tx, { sourceVenueId, targetVenueId, now }: CopyRequest) {
  const at = now.toISOString();
  const rows = await trx.selectFrom('time_periods').selectAll().where('venue_id', '=', sourceVenueId).execute();
  const map = new Map<string, string>();
  for (const row of rows) {
    const id = newId('tp');
    map.set(row.id, id);
    await trx.insertInto('time_periods').values({ ...row, id, venue_id: targetVenueId, created_at: at, updated_at: at }).execute();
  }
  return { count: rows.length, match: ((id) => (id === null ? null : (map.get(id) ?? null))) as IdMatch };
}

async function copyBlackouts(trx: Tx, { sourceVenueId, targetVenueId, now }: CopyRequest) {
  const at = now.toISOString();
  const rows = await trx.selectFrom('blackouts').selectAll().where('venue_id', '=', sourceVenueId).execute();
  for (const row of rows) {
    await trx.insertInto('blackouts').values({ ...row, id: newId('blk'), venue_id: targetVenueId, created_at: at, updated_at: at }).execute();
  }
  return rows.length;
}

async function copyShifts(trx: Tx, request: CopyRequest, period: IdMatch) {
  const { sourceVenueId: source, targetVenueId: target } = request;
  const at = request.now.toISOString();
  const area = await matchBy(trx, 'seating_areas', 'name', source, target);
  const table = await matchBy(trx, 'venue_tables', 'table_number', source, target);
  const policy = await matchBy(trx, 'payment_policies', 'name', source, target);
  const rows: Selectable<ShiftsTable>[] = await trx.selectFrom('shifts').selectAll().where('venue_id', '=', source).execute();
  for (const row of rows) {
    await trx
      .insertInto('shifts')
      .values({
        ...row,
        id: newId('shf'),
        venue_id: target,
        time_period_id: period(row.time_period_id),
        seating_area_ids: matchList(area, row.seating_area_ids),
        table_ids: matchList(table, row.table_ids),
        payment_policy_id: policy(row.payment_policy_id),
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  return rows.length;
}

async function copyAccessRules(trx: Tx, request: CopyRequest) {
  const { sourceVenueId: source, targetVenueId: target } = request;
  const at = request.now.toISOString();
  const area = await matchBy(trx, 'seating_areas', 'name', source, target);
  const table = await matchBy(trx, 'venue_tables', 'table_number', source, target);
  const pricelist = await matchBy(trx, 'pricelists', 'name', source, target);
  const policy = await matchBy(trx, 'payment_policies', 'name', source, target);
  const bundle = await matchBy(trx, 'bundles', 'name', source, target);
  const listProfile = await matchBy(trx, 'profiles', 'name', source, target, 'list');
  const tableProfile = await matchBy(trx, 'profiles', 'name', source, target, 'table');
  const rows: Selectable<AccessRulesTable>[] = await trx.selectFrom('access_rules').selectAll().where('venue_id', '=', source).execute();
  for (const row of rows) {
    await trx
      .insertInto('access_rules')
      .values({
        ...row,
        id: newId('rule'),
        venue_id: target,
        guest_pick_area_ids: matchList(area, row.guest_pick_area_ids),
        seating_area_ids: matchList(area, row.seating_area_ids),
        table_ids: matchList(table, row.table_ids),
        bundle_ids: matchList(bundle, row.bundle_ids),
        pricelist_id: pricelist(row.pricelist_id),
        payment_policy_id: policy(row.payment_policy_id),
        list_profile_id: listProfile(row.list_profile_id),
        table_profile_id: tableProfile(row.table_profile_id),
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  await syncBookable(trx, target, at);
  return rows.length;
}

const shiftsScope: CopyScope = {
  name: 'shifts',
  async copy(request) {
    const { trx, sourceVenueId, targetVenueId } = request;
    await trx.deleteFrom('shifts').where('venue_id', '=', targetVenueId).execute();
    // Time periods are not part of this scope: a shift keeps its period when the target has one of that name.
    const period = await matchBy(trx, 'time_periods', 'name', sourceVenueId, targetVenueId);
    return copyShifts(trx, request, period);
  },
};

const accessRulesScope: CopyScope = {
  name: 'access-rules',
  async copy(request) {
    await request.trx.deleteFrom('access_rules').where('venue_id', '=', request.targetVenueId).execute();
    return copyAccessRules(request.trx, request);
  },
};

const availabilityScope: CopyScope = {
  name: 'availability',
  async copy(request) {
    const { trx, targetVenueId } = request;
    for (const table of ['access_rules', 'shifts', 'blackouts', 'time_periods'] as const) {
      await trx.deleteFrom(table).where('venue_id', '=', targetVenueId).execute();
    }
    const periods = await copyTimePeriods(trx, request);
    const blackouts = await copyBlackouts(trx, request);
    const shifts = await copyShifts(trx, request, periods.match);
    const rules = await copyAccessRules(trx, request);
    return periods.count + blackouts + shifts + rules;
  },
};

export const availabilityCopyScopes: CopyScope[] = [shiftsScope, accessRulesScope, availabilityScope];

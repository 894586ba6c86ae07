/**
 * The availability module's copy-from scopes: `shifts`, `access-rules`, and `availability` (time periods,
 * blackouts, shifts and access rules together). Each replaces the target venue's rows of the scope with
 * copies of the source's inside the caller's transaction. References inside the copied scope point at
 * the copies (shift → time period); references outside it are matched in the target venue by name
 * (time periods, areas, price lists, payment policies, profiles of the same family, bundles) or by table
 * number, and cleared when the target has no match.
 */
import type { Kysely, Selectable } from 'kysely';
import { parseIdArray } from '../../db/json.js';
import type { Database } from '../../db/schema.js';
import type { CopyRequest, CopyScope } from '../../platform/copy-scopes.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { syncBookable } from './availability.repository.js';
import type { AccessRulesTable, ShiftsTable } from './availability.table.js';

type IdMatch = (id: string | null) => string | null;
type Translator = Awaited<ReturnType<References['translator']>>;

const matchList = (match: Translator, text: string) => JSON.stringify(match.many(parseIdArray(text)));

async function copyTimePeriods(trx: Kysely<Database>, { sourceVenueId, targetVenueId, now }: CopyRequest) {
  const at = now.toISOString();
  const rows = await trx.selectFrom('time_periods').selectAll().where('venue_id', '=', sourceVenueId).execute();
  const map = new Map<string, string>();
  for (const row of rows) {
    const id = newId('tp');
    map.set(row.id, id);
    await trx
      .insertInto('time_periods')
      .values({ ...row, id, venue_id: targetVenueId, created_at: at, updated_at: at })
      .execute();
  }
  return { count: rows.length, match: ((id) => (id === null ? null : (map.get(id) ?? null))) as IdMatch };
}

async function copyBlackouts(trx: Kysely<Database>, { sourceVenueId, targetVenueId, now }: CopyRequest) {
  const at = now.toISOString();
  const rows = await trx.selectFrom('blackouts').selectAll().where('venue_id', '=', sourceVenueId).execute();
  for (const row of rows) {
    await trx
      .insertInto('blackouts')
      .values({ ...row, id: newId('blk'), venue_id: targetVenueId, created_at: at, updated_at: at })
      .execute();
  }
  return rows.length;
}

async function copyShifts(references: References, trx: Kysely<Database>, request: CopyRequest, period: IdMatch) {
  const { sourceVenueId: source, targetVenueId: target } = request;
  const at = request.now.toISOString();
  const area = await references.translator(trx, 'seating_area', source, target);
  const table = await references.translator(trx, 'table', source, target);
  const policy = await references.translator(trx, 'payment_policy', source, target);
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
        payment_policy_id: policy.one(row.payment_policy_id),
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  return rows.length;
}

async function copyAccessRules(references: References, trx: Kysely<Database>, request: CopyRequest) {
  const { sourceVenueId: source, targetVenueId: target } = request;
  const at = request.now.toISOString();
  const area = await references.translator(trx, 'seating_area', source, target);
  const table = await references.translator(trx, 'table', source, target);
  const pricelist = await references.translator(trx, 'pricelist', source, target);
  const policy = await references.translator(trx, 'payment_policy', source, target);
  const bundle = await references.translator(trx, 'bundle', source, target);
  const listProfile = await references.translator(trx, 'list_profile', source, target);
  const tableProfile = await references.translator(trx, 'table_profile', source, target);
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
        pricelist_id: pricelist.one(row.pricelist_id),
        payment_policy_id: policy.one(row.payment_policy_id),
        list_profile_id: listProfile.one(row.list_profile_id),
        table_profile_id: tableProfile.one(row.table_profile_id),
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  await syncBookable(trx, target, at);
  return rows.length;
}

/** The scopes this module owns; they translate other modules' ids through the reference registry. */
export function createAvailabilityCopyScopes(references: References): CopyScope[] {
  const shifts: CopyScope = {
    name: 'shifts',
    permission: 'availability',
    async copy(request) {
      const { trx, sourceVenueId, targetVenueId } = request;
      await trx.deleteFrom('shifts').where('venue_id', '=', targetVenueId).execute();
      // Time periods are not part of this scope: a shift keeps its period when the target has one of that name.
      const period = await references.translator(trx, 'time_period', sourceVenueId, targetVenueId);
      return copyShifts(references, trx, request, period.one);
    },
  };

  const accessRules: CopyScope = {
    name: 'access-rules',
    permission: 'availability',
    async copy(request) {
      await request.trx.deleteFrom('access_rules').where('venue_id', '=', request.targetVenueId).execute();
      return copyAccessRules(references, request.trx, request);
    },
  };

  const availability: CopyScope = {
    name: 'availability',
    permission: 'availability',
    async copy(request) {
      const { trx, targetVenueId } = request;
      for (const table of ['access_rules', 'shifts', 'blackouts', 'time_periods'] as const) {
        await trx.deleteFrom(table).where('venue_id', '=', targetVenueId).execute();
      }
      const periods = await copyTimePeriods(trx, request);
      const blackouts = await copyBlackouts(trx, request);
      const shiftCount = await copyShifts(references, trx, request, periods.match);
      const rules = await copyAccessRules(references, trx, request);
      return periods.count + blackouts + shiftCount + rules;
    },
  };

  return [shifts, accessRules, availability];
}

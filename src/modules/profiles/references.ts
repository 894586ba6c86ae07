/**
 * The profiles module's side of cross-module references: the kinds of row it owns (payment policies,
 * admission groups and the four profile families, matched across venues by name), and how its profiles
 * follow the rows they point at when those are deleted or replaced — payment policies, admission groups
 * and price lists by column, bundles, promo codes, tables and seating areas inside the settings JSON.
 */
import type { IdRemap } from '../../db/json.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { ReferenceKind, References } from '../../platform/references.js';
import type { ProfileFamily } from './profiles.table.js';

/** The reference kind of each profile family. */
export const PROFILE_KINDS: Record<ProfileFamily, ReferenceKind> = {
  list: 'list_profile',
  table: 'table_profile',
  event: 'event_profile',
  ticket: 'ticket_profile',
};

/** Rewrites an id list kept inside the venue's profiles' settings JSON (`bundle_ids`, `table_ids`…). */
export async function rewriteProfileSettingIds(db: Conn, venueId: string, key: string, remap: IdRemap): Promise<void> {
  if (remap.size === 0) return;
  const rows = await kyselyOf(db).selectFrom('profiles').select(['id', 'settings']).where('venue_id', '=', venueId).execute();
  for (const row of rows) {
    const settings = JSON.parse(row.settings) as Record<string, unknown>;
    const ids = Array.isArray(settings[key]) ? (settings[key] as string[]) : [];
    if (!ids.some((id) => remap.has(id))) continue;
    settings[key] = [...new Set(ids.flatMap((id) => (remap.has(id) ? (remap.get(id) ?? []) : [id])))];
    await kyselyOf(db)
      .updateTable('profiles')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', row.id)
      .execute();
  }
}

/** Re-points one reference column of the venue's profiles (stamping `updated_at` when `now` is given). */
async function repointColumn(
  db: Conn,
  column: 'admission_rule_group_id' | 'payment_policy_id' | 'pricelist_id',
  venueId: string,
  remap: IdRemap,
  now?: string,
): Promise<void> {
  for (const [from, to] of remap) {
    if (from === to) continue;
    let update = kyselyOf(db).updateTable('profiles').set(column, to).where(column, '=', from).where('venue_id', '=', venueId);
    if (now) update = update.set('updated_at', now);
    await update.execute();
  }
}

export function registerProfilesReferences(references: References): void {
  references.own('payment_policy', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('payment_policies')
      .select(['id', 'name as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
  references.own('admission_group', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('admission_groups')
      .select(['id', 'name as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
  for (const [family, kind] of Object.entries(PROFILE_KINDS) as [ProfileFamily, ReferenceKind][]) {
    references.own(kind, (db, venueId) =>
      kyselyOf(db)
        .selectFrom('profiles')
        .select(['id', 'name as key'])
        .where('venue_id', '=', venueId)
        .where('family', '=', family)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    );
  }

  references.onRepoint('payment_policy', (db, venueId, remap) => repointColumn(db, 'payment_policy_id', venueId, remap));
  references.onRepoint('admission_group', (db, venueId, remap) => repointColumn(db, 'admission_rule_group_id', venueId, remap));
  references.onRepoint('pricelist', (db, venueId, remap, now) => repointColumn(db, 'pricelist_id', venueId, remap, now));
  references.onRepoint('bundle', (db, venueId, remap) => rewriteProfileSettingIds(db, venueId, 'bundle_ids', remap));
  references.onRepoint('promo_code', (db, venueId, remap) => rewriteProfileSettingIds(db, venueId, 'promo_code_ids', remap));
  references.onRepoint('table', (db, venueId, remap) => rewriteProfileSettingIds(db, venueId, 'table_ids', remap));
  references.onRepoint('seating_area', async (db, venueId, remap) => {
    await rewriteProfileSettingIds(db, venueId, 'seating_area_ids', remap);
    await rewriteProfileSettingIds(db, venueId, 'guest_pick_area_ids', remap);
  });
}

/**
 * The profiles module's copy-from scopes: `payment-policies`, `admission-rules` and `access-profiles`.
 * Each replaces the target venue's rows of the scope with copies of the source's (new ids) inside the
 * caller's transaction, and keeps references consistent:
 * - inside the copies, ids of the source venue's things are translated to the target's things of the
 *   same name (admission group, payment policy, bundles, price list, seating areas; promo codes by code,
 *   tables by number) or dropped;
 * - the target's own references to the replaced rows (in this and other modules) are re-pointed to the
 *   copy of the same name, or cleared when the source has none, through the reference registry.
 * Where a foreign key would null a reference on delete, the copies are inserted and references re-pointed
 * before the old rows go.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CopyRequest, CopyScope } from '../../platform/copy-scopes.js';
import { newId } from '../../platform/ids.js';
import { matchByKey, type Keyed, type References } from '../../platform/references.js';
import { FAMILIES } from './profiles.families.js';
import { PROFILE_KINDS } from './references.js';
import type { ProfileFamily } from './profiles.table.js';

/** id → name of a venue's rows of one of this module's tables, oldest first. */
const namesOf = (trx: Kysely<Database>, table: 'payment_policies' | 'admission_groups', venueId: string): Promise<Keyed[]> =>
  trx.selectFrom(table).select(['id', 'name as key']).where('venue_id', '=', venueId).orderBy('created_at').orderBy('id').execute();

export function createProfilesCopyScopes(references: References): CopyScope[] {
  const paymentPolicies: CopyScope = {
    name: 'payment-policies',
    permission: 'profiles',
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const old = await namesOf(trx, 'payment_policies', targetVenueId);
      const source = await trx
        .selectFrom('payment_policies')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const copies = source.map((row) => ({ ...row, id: newId('pp'), venue_id: targetVenueId, created_at: at, updated_at: at }));
      if (copies.length) await trx.insertInto('payment_policies').values(copies).execute();
      await references.repoint(
        trx,
        'payment_policy',
        targetVenueId,
        matchByKey(
          old,
          copies.map((c) => ({ id: c.id, key: c.name })),
        ),
        at,
      );
      if (old.length)
        await trx
          .deleteFrom('payment_policies')
          .where(
            'id',
            'in',
            old.map((o) => o.id),
          )
          .execute();
      return copies.length;
    },
  };

  const admissionRules: CopyScope = {
    name: 'admission-rules',
    permission: 'profiles',
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const old = await namesOf(trx, 'admission_groups', targetVenueId);
      const groups = await trx
        .selectFrom('admission_groups')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const rules = await trx
        .selectFrom('admission_rules')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const newIds = new Map(groups.map((row) => [row.id, newId('adg')]));
      const groupCopies = groups.map((row) => ({
        ...row,
        id: newIds.get(row.id)!,
        venue_id: targetVenueId,
        created_at: at,
        updated_at: at,
      }));
      const ruleCopies = rules.map((rule) => ({
        ...rule,
        id: newId('adr'),
        group_id: newIds.get(rule.group_id)!,
        venue_id: targetVenueId,
        created_at: at,
        updated_at: at,
      }));
      if (groupCopies.length) await trx.insertInto('admission_groups').values(groupCopies).execute();
      if (ruleCopies.length) await trx.insertInto('admission_rules').values(ruleCopies).execute();
      await references.repoint(
        trx,
        'admission_group',
        targetVenueId,
        matchByKey(
          old,
          groupCopies.map((g) => ({ id: g.id, key: g.name })),
        ),
        at,
      );
      if (old.length) {
        await trx
          .deleteFrom('admission_rules')
          .where(
            'group_id',
            'in',
            old.map((o) => o.id),
          )
          .execute();
        await trx
          .deleteFrom('admission_groups')
          .where(
            'id',
            'in',
            old.map((o) => o.id),
          )
          .execute();
      }
      return groupCopies.length + ruleCopies.length;
    },
  };

  const accessProfiles: CopyScope = {
    name: 'access-profiles',
    permission: 'profiles',
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const old = await trx.selectFrom('profiles').select(['id', 'family', 'name']).where('venue_id', '=', targetVenueId).execute();
      const source = await trx
        .selectFrom('profiles')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const [groups, policies, pricelists, bundleIds, promos, areas, tables] = await Promise.all([
        references.translator(trx, 'admission_group', sourceVenueId, targetVenueId),
        references.translator(trx, 'payment_policy', sourceVenueId, targetVenueId),
        references.translator(trx, 'pricelist', sourceVenueId, targetVenueId),
        references.translator(trx, 'bundle', sourceVenueId, targetVenueId),
        references.translator(trx, 'promo_code', sourceVenueId, targetVenueId),
        references.translator(trx, 'seating_area', sourceVenueId, targetVenueId),
        references.translator(trx, 'table', sourceVenueId, targetVenueId),
      ]);
      const idLists = {
        bundle_ids: bundleIds,
        promo_code_ids: promos,
        seating_area_ids: areas,
        guest_pick_area_ids: areas,
        table_ids: tables,
      };
      const copies = source.map((row) => {
        const settings = JSON.parse(row.settings) as Record<string, unknown>;
        for (const [key, translate] of Object.entries(idLists)) {
          if (key in FAMILIES[row.family].fields && key in settings) settings[key] = translate.many(settings[key]);
        }
        return {
          ...row,
          id: newId('prf'),
          venue_id: targetVenueId,
          settings: JSON.stringify(settings),
          admission_rule_group_id: groups.one(row.admission_rule_group_id),
          payment_policy_id: policies.one(row.payment_policy_id),
          pricelist_id: pricelists.one(row.pricelist_id),
          created_at: at,
          updated_at: at,
        };
      });
      if (copies.length) await trx.insertInto('profiles').values(copies).execute();
      // A profile is "the same" in the copy when family and name match.
      const mapping = matchByKey(
        old.map((o) => ({ id: o.id, key: `${o.family}:${o.name}` })),
        copies.map((c) => ({ id: c.id, key: `${c.family}:${c.name}` })),
      );
      for (const [family, kind] of Object.entries(PROFILE_KINDS) as [ProfileFamily, (typeof PROFILE_KINDS)[ProfileFamily]][]) {
        const ofFamily = new Set(old.filter((o) => o.family === family).map((o) => o.id));
        await references.repoint(trx, kind, targetVenueId, new Map([...mapping].filter(([id]) => ofFamily.has(id))), at);
      }
      if (old.length)
        await trx
          .deleteFrom('profiles')
          .where(
            'id',
            'in',
            old.map((o) => o.id),
          )
          .execute();
      return copies.length;
    },
  };

  return [paymentPolicies, admissionRules, accessProfiles];
}

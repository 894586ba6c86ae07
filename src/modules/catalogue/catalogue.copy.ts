/**
 * The copy-from scopes of the profiles and catalogue modules. Each replaces the target venue's rows of
 * the scope with copies of the source's (new ids) inside the caller's transaction, and keeps references
 * consistent:
 * - inside the copies, ids of the source venue's things are translated to the target's things of the
 *   same name (admission group, payment policy, bundles, price list, seating areas; promo codes by code,
 *   tables by number) or dropped;
 * - the target's own references to the replaced rows (access rules, shifts, profiles, and once the events
 *   module has them, ticket types' profile and admission group) are re-pointed to the copy of the same
 *   name, or cleared when the source has none.
 * Where a foreign key would null a reference on delete, the copies are inserted and references re-pointed
 * before the old rows go; where a unique index forbids two rows of the same key, the old rows go first.
 */
import type { Engine } from '../../db/connect.js';
import type { Tx } from '../../db/transaction.js';
import type { CopyRequest, CopyScope } from '../../platform/copy-scopes.js';
import { newId } from '../../platform/ids.js';
import { FAMILIES } from '../profiles/profiles.families.js';
import {
  loose,
  mappingByKey,
  repointAdmissionGroups,
  repointBundles,
  repointPaymentPolicies,
  repointProfiles,
  rewriteProfileSettingIds,
} from '../profiles/references.js';
import type { TagKind } from './catalogue.schemas.js';

type Keyed = { id: string; key: string };

/** id → key (name, code, number) of a venue's rows of a table, through the loose handle for other modules' tables. */
async function keysOf(trx: Tx, table: string, keyColumn: string, venueId: string): Promise<Keyed[]> {
  const rows: Keyed[] = await loose(trx)
    .selectFrom(table)
    .select(['id', `${keyColumn} as key`])
    .where('venue_id', '=', venueId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows;
}

/** Translates a source venue's ids to the target venue's ids of the same key; unmatched → null. */
async function translator(trx: Tx, table: string, keyColumn: string, sourceVenueId: string, targetVenueId: string) {
  const mapping = mappingByKey(await keysOf(trx, table, keyColumn, sourceVenueId), await keysOf(trx, table, keyColumn, targetVenueId));
  return {
    one: (id: unknown) => (typeof id === 'string' ? (mapping.get(id) ?? null) : null),
    many: (ids: unknown) => (Array.isArray(ids) ? ids.map((id) => mapping.get(id as string)).filter((id): id is string => Boolean(id)) : []),
  };
}

const paymentPolicies: CopyScope = {
  name: 'payment-policies',
  async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
    const at = now.toISOString();
    const old = await keysOf(trx, 'payment_policies', 'name', targetVenueId);
    const source = await trx.selectFrom('payment_policies').selectAll().where('venue_id', '=', sourceVenueId).orderBy('created_at').orderBy('id').execute();
    const copies = source.map((row) => ({ ...row, id: newId('pp'), venue_id: targetVenueId, created_at: at, updated_at: at }));
    if (copies.length) await trx.insertInto('payment_policies').values(copies).execute();
    await repointPaymentPolicies(trx, targetVenueId, mappingByKey(old, copies.map((c) => ({ id: c.id, key: c.name }))));
    if (old.length) await trx.deleteFrom('payment_policies').where('id', 'in', old.map((o) => o.id)).execute();
    return copies.length;
  },
};

const bundles: CopyScope = {
  name: 'bundles',
  async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
    const at = now.toISOString();
    const old = await keysOf(trx, 'bundles', 'name', targetVenueId);
    const source = await trx.selectFrom('bundles').selectAll().where('venue_id', '=', sourceVenueId).orderBy('created_at').orderBy('id').execute();
    const items = await trx.selectFrom('bundle_items').selectAll().where('venue_id', '=', sourceVenueId).orderBy('created_at').orderBy('id').execute();
    const newIds = new Map(source.map((row) => [row.id, newId('bnd')]));
    const copies = source.map((row) => ({ ...row, id: newIds.get(row.id)!, venue_id: targetVenueId, created_at: at, updated_at: at }));
    // Uploaded images are content-addressed and shared, so the copies keep the same image_url.
    const itemCopies = items.map((item) => ({ ...item, id: newId('bni'), bundle_id: newIds.get(item.bundle_id)!, venue_id: targetVenueId, created_at: at, updated_at: at }));
    if (copies.length) await trx.insertInto('bundles').values(copies).execute();
    if (itemCopies.length) await trx.insertInto('bundle_items').values(itemCopies).execute();
    await repointBundles(trx, targetVenueId, mappingByKey(old, copies.map((c) => ({ id: c.id, key: c.name }))));
    if (old.length) {
      await trx.deleteFrom('bundle_items').where('bundle_id', 'in', old.map((o) => o.id)).execute();
      await trx.deleteFrom('bundles').where('id', 'in', old.map((o) => o.id)).execute();
    }
    return copies.length + itemCopies.length;
  },
};

const admissionRules = (engine: Engine): CopyScope => ({
  name: 'admission-rules',
  async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
    const at = now.toISOString();
    const old = await keysOf(trx, 'admission_groups', 'name', targetVenueId);
    const groups = await trx.selectFrom('admission_groups').selectAll().where('venue_id', '=', sourceVenueId).orderBy('created_at').orderBy('id').execute();
    const rules = await trx.selectFrom('admission_rules').selectAll().where('venue_id', '=', sourceVenueId).orderBy('created_at').orderBy('id').execute();
    const newIds = new Map(groups.map((row) => [row.id, newId('adg')]));
    const groupCopies = groups.map((row) => ({ ...row, id: newIds.get(row.id)!, venue_id: targetVenueId, created_at: at, updated_at: at }));
    const ruleCopies = rules.map((rule) => ({ ...rule, id: newId('adr'), group_id: newIds.get(rule.group_id)!, venue_id: targetVenueId, created_at: at, updated_at: at }));
    if (groupCopies.length) await trx.insertInto('admission_groups').values(groupCopies).execute();
    if (ruleCopies.length) await trx.insertInto('admission_rules').values(ruleCopies).execute();
    await repointAdmissionGroups(trx, engine, targetVenueId, mappingByKey(old, groupCopies.map((g) => ({ id: g.id, key: g.name }))));
    if (old.length) {
      await trx.deleteFrom('admission_rules').where('group_id', 'in', old.map((o) => o.id)).execute();
      await trx.deleteFrom('admission_groups').where('id', 'in', old.map((o) => o.id)).execute();
    }
    return groupCopies.length + ruleCopies.length;
  },
});

const promoCodes: CopyScope = {
  name: 'promo-codes',
  async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
    const at = now.toISOString();
    const old = await keysOf(trx, 'promo_codes', 'code', targetVenueId);
    const source = await trx.selectFrom('promo_codes').selectAll().where('venue_id', '=', sourceVenueId).orderBy('created_at').orderBy('id').execute();
    // (venue_id, code) is unique: the old codes must go before their copies arrive.
    await trx.deleteFrom('promo_codes').where('venue_id', '=', targetVenueId).execute();
    const copies = source.map((row) => ({ ...row, id: newId('promo'), venue_id: targetVenueId, uses: 0, created_at: at, updated_at: at }));
    if (copies.length) await trx.insertInto('promo_codes').values(copies).execute();
    await rewriteProfileSettingIds(trx, targetVenueId, 'promo_code_ids', mappingByKey(old, copies.map((c) => ({ id: c.id, key: c.code }))));
    return copies.length;
  },
};

function createAccessProfiles(engine: Engine): CopyScope {
  return {
    name: 'access-profiles',
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const old = await trx.selectFrom('profiles').select(['id', 'family', 'name']).where('venue_id', '=', targetVenueId).execute();
      const source = await trx.selectFrom('profiles').selectAll().where('venue_id', '=', sourceVenueId).orderBy('created_at').orderBy('id').execute();
      const [groups, policies, pricelists, bundleIds, promos, areas, tables] = await Promise.all([
        translator(trx, 'admission_groups', 'name', sourceVenueId, targetVenueId),
        translator(trx, 'payment_policies', 'name', sourceVenueId, targetVenueId),
        translator(trx, 'pricelists', 'name', sourceVenueId, targetVenueId),
        translator(trx, 'bundles', 'name', sourceVenueId, targetVenueId),
        translator(trx, 'promo_codes', 'code', sourceVenueId, targetVenueId),
        translator(trx, 'seating_areas', 'name', sourceVenueId, targetVenueId),
        translator(trx, 'venue_tables', 'table_number', sourceVenueId, targetVenueId),
      ]);
      const idLists = { bundle_ids: bundleIds, promo_code_ids: promos, seating_area_ids: areas, guest_pick_area_ids: areas, table_ids: tables };
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
      const mapping = mappingByKey(
        old.map((o) => ({ id: o.id, key: `${o.family}:${o.name}` })),
        copies.map((c) => ({ id: c.id, key: `${c.family}:${c.name}` })),
      );
      await repointProfiles(trx, engine, targetVenueId, mapping, new Map(old.map((o) => [o.id, o.family])));
      if (old.length) await trx.deleteFrom('profiles').where('id', 'in', old.map((o) => o.id)).execute();
      return copies.length;
    },
  };
}

function tagsScope(name: string, kind: TagKind): CopyScope {
  return {
    name,
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const categories = await trx.selectFrom('tag_categories').selectAll().where('venue_id', '=', sourceVenueId).where('kind', '=', kind).orderBy('created_at').orderBy('id').execute();
      const tags = await trx.selectFrom('custom_tags').selectAll().where('venue_id', '=', sourceVenueId).where('kind', '=', kind).orderBy('created_at').orderBy('id').execute();
      await trx.deleteFrom('custom_tags').where('venue_id', '=', targetVenueId).where('kind', '=', kind).execute();
      await trx.deleteFrom('tag_categories').where('venue_id', '=', targetVenueId).where('kind', '=', kind).execute();
      const categoryCopies = categories.map((row) => ({ ...row, id: newId('tcat'), venue_id: targetVenueId, created_at: at, updated_at: at }));
      const tagCopies = tags.map((row) => ({ ...row, id: newId('tag'), venue_id: targetVenueId, created_at: at }));
      if (categoryCopies.length) await trx.insertInto('tag_categories').values(categoryCopies).execute();
      if (tagCopies.length) await trx.insertInto('custom_tags').values(tagCopies).execute();
      return categoryCopies.length + tagCopies.length;
    },
  };
}

/** The venue's door and queue settings, which live on the venue row itself: one row copied. */
const QUEUE_COLUMNS = ['queue_skip_price', 'surge_threshold', 'surge_price', 'backdoor_capacity', 'last_entry_time', 'max_plus_ones'] as const;
const queue: CopyScope = {
  name: 'queue',
  async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
    const source = await trx.selectFrom('venues').select([...QUEUE_COLUMNS]).where('id', '=', sourceVenueId).executeTakeFirstOrThrow();
    await trx.updateTable('venues').set({ ...source, updated_at: now.toISOString() }).where('id', '=', targetVenueId).execute();
    return 1;
  },
};

/** The scopes this module owns; access-profiles and admission-rules need the engine to look for the events module's ticket_types. */
export function createCatalogueCopyScopes(engine: Engine): CopyScope[] {
  return [
    bundles,
    paymentPolicies,
    createAccessProfiles(engine),
    admissionRules(engine),
    promoCodes,
    tagsScope('client-tags', 'guest'),
    tagsScope('reservation-tags', 'reservation'),
    queue,
  ];
}

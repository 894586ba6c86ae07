/**
 * The catalogue module's copy-from scopes: `bundles`, `promo-codes`, `client-tags` and `reservation-tags`.
 * Each replaces the target venue's rows of the scope with copies of the source's inside the caller's
 * transaction; the target's references to replaced bundles and promo codes (access rules, profiles) are
 * re-pointed to the copy of the same name or code, or cleared, through the reference registry.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CopyRequest, CopyScope } from '../../platform/copy-scopes.js';
import { newId } from '../../platform/ids.js';
import { matchByKey, type Keyed, type References } from '../../platform/references.js';
import type { TagKind } from './catalogue.schemas.js';

/** id → key of the venue's bundles (by name) or promo codes (by code), oldest first. */
const bundleNames = (trx: Kysely<Database>, venueId: string): Promise<Keyed[]> =>
  trx.selectFrom('bundles').select(['id', 'name as key']).where('venue_id', '=', venueId).orderBy('created_at').orderBy('id').execute();
const promoCodes = (trx: Kysely<Database>, venueId: string): Promise<Keyed[]> =>
  trx.selectFrom('promo_codes').select(['id', 'code as key']).where('venue_id', '=', venueId).orderBy('created_at').orderBy('id').execute();

function tagsScope(name: string, kind: TagKind): CopyScope {
  return {
    name,
    permission: 'catalogue',
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const categories = await trx
        .selectFrom('tag_categories')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .where('kind', '=', kind)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const tags = await trx
        .selectFrom('custom_tags')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .where('kind', '=', kind)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      await trx.deleteFrom('custom_tags').where('venue_id', '=', targetVenueId).where('kind', '=', kind).execute();
      await trx.deleteFrom('tag_categories').where('venue_id', '=', targetVenueId).where('kind', '=', kind).execute();
      const categoryCopies = categories.map((row) => ({
        ...row,
        id: newId('tcat'),
        venue_id: targetVenueId,
        created_at: at,
        updated_at: at,
      }));
      const tagCopies = tags.map((row) => ({ ...row, id: newId('tag'), venue_id: targetVenueId, created_at: at }));
      if (categoryCopies.length) await trx.insertInto('tag_categories').values(categoryCopies).execute();
      if (tagCopies.length) await trx.insertInto('custom_tags').values(tagCopies).execute();
      return categoryCopies.length + tagCopies.length;
    },
  };
}

export function createCatalogueCopyScopes(references: References): CopyScope[] {
  const bundles: CopyScope = {
    name: 'bundles',
    permission: 'catalogue',
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const old = await bundleNames(trx, targetVenueId);
      const source = await trx
        .selectFrom('bundles')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const items = await trx
        .selectFrom('bundle_items')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const newIds = new Map(source.map((row) => [row.id, newId('bnd')]));
      const copies = source.map((row) => ({ ...row, id: newIds.get(row.id)!, venue_id: targetVenueId, created_at: at, updated_at: at }));
      // Uploaded images are content-addressed and shared, so the copies keep the same image_url.
      const itemCopies = items.map((item) => ({
        ...item,
        id: newId('bni'),
        bundle_id: newIds.get(item.bundle_id)!,
        venue_id: targetVenueId,
        created_at: at,
        updated_at: at,
      }));
      if (copies.length) await trx.insertInto('bundles').values(copies).execute();
      if (itemCopies.length) await trx.insertInto('bundle_items').values(itemCopies).execute();
      await references.repoint(
        trx,
        'bundle',
        targetVenueId,
        matchByKey(
          old,
          copies.map((c) => ({ id: c.id, key: c.name })),
        ),
        at,
      );
      if (old.length) {
        await trx
          .deleteFrom('bundle_items')
          .where(
            'bundle_id',
            'in',
            old.map((o) => o.id),
          )
          .execute();
        await trx
          .deleteFrom('bundles')
          .where(
            'id',
            'in',
            old.map((o) => o.id),
          )
          .execute();
      }
      return copies.length + itemCopies.length;
    },
  };

  const promos: CopyScope = {
    name: 'promo-codes',
    permission: 'catalogue',
    async copy({ trx, sourceVenueId, targetVenueId, now }: CopyRequest) {
      const at = now.toISOString();
      const old = await promoCodes(trx, targetVenueId);
      const source = await trx
        .selectFrom('promo_codes')
        .selectAll()
        .where('venue_id', '=', sourceVenueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      // (venue_id, code) is unique: the old codes must go before their copies arrive.
      await trx.deleteFrom('promo_codes').where('venue_id', '=', targetVenueId).execute();
      const copies = source.map((row) => ({
        ...row,
        id: newId('promo'),
        venue_id: targetVenueId,
        uses: 0,
        created_at: at,
        updated_at: at,
      }));
      if (copies.length) await trx.insertInto('promo_codes').values(copies).execute();
      await references.repoint(
        trx,
        'promo_code',
        targetVenueId,
        matchByKey(
          old,
          copies.map((c) => ({ id: c.id, key: c.code })),
        ),
        at,
      );
      return copies.length;
    },
  };

  return [bundles, promos, tagsScope('client-tags', 'guest'), tagsScope('reservation-tags', 'reservation')];
}

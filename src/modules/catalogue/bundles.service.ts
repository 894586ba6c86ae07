/**
 * Bundles of paid add-ons and their items (price in pence, optional max quantity and image). Deleting
 * a bundle removes its items and takes its id out of the access rules and profiles that offered it.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { parseIdArray } from '../../db/json.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { requiredText } from '../../platform/text.js';
import { UPLOAD_LIMITS, type Uploads } from '../../platform/uploads.js';
import { APPLICABLE_PROFILES, type BundleBody, type BundleUpdateBody, type ItemBody, type ItemUpdateBody } from './catalogue.schemas.js';
import type { BundleItemsTable, BundlesTable } from './catalogue.table.js';

type BundleRow = Selectable<BundlesTable>;
type ItemRow = Selectable<BundleItemsTable>;

export const toBundleItem = (row: ItemRow) => ({
  id: row.id,
  bundle_id: row.bundle_id,
  name: row.name,
  price: row.price,
  max_qty: row.max_qty,
  image_url: row.image_url,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toBundle = (row: BundleRow, items: ItemRow[]) => ({
  id: row.id,
  name: row.name,
  applicable_profiles: parseIdArray(row.applicable_profiles),
  items: items.filter((item) => item.bundle_id === row.id).map(toBundleItem),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** Omitted or null means both; stored in a fixed order so equal sets read back equal. */
const applicableProfiles = (value: readonly string[] | null | undefined) =>
  JSON.stringify(APPLICABLE_PROFILES.filter((profile) => !value || value.includes(profile)));

export function createBundlesService(deps: { db: Db; clock: Clock; uploads: Pick<Uploads, 'saveImage'>; references: References }) {
  const { db, clock, uploads, references } = deps;

  async function loadBundle(venueId: string, id: string) {
    const row = await db.kysely.selectFrom('bundles').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Bundle');
    return row;
  }

  async function loadItem(venueId: string, bundleId: string, itemId: string) {
    const row = await db.kysely
      .selectFrom('bundle_items')
      .selectAll()
      .where('venue_id', '=', venueId)
      .where('bundle_id', '=', bundleId)
      .where('id', '=', itemId)
      .executeTakeFirst();
    if (!row) throw notFound('Bundle item');
    return row;
  }

  const touch = (id: string) =>
    db.kysely.updateTable('bundles').set({ updated_at: clock.now().toISOString() }).where('id', '=', id).execute();

  return {
    async list(venueId: string) {
      const [bundles, items] = await Promise.all([
        db.kysely.selectFrom('bundles').selectAll().where('venue_id', '=', venueId).orderBy('created_at').orderBy('id').execute(),
        db.kysely.selectFrom('bundle_items').selectAll().where('venue_id', '=', venueId).orderBy('created_at').orderBy('id').execute(),
      ]);
      return bundles.map((bundle) => toBundle(bundle, items));
    },

    async create(venueId: string, body: BundleBody): Promise<string> {
      const id = newId('bnd');
      const at = clock.now().toISOString();
      await db.kysely
        .insertInto('bundles')
        .values({
          id,
          venue_id: venueId,
          name: requiredText(body.name, 'name'),
          applicable_profiles: applicableProfiles(body.applicable_profiles),
          created_at: at,
          updated_at: at,
        })
        .execute();
      return id;
    },

    async update(venueId: string, id: string, body: BundleUpdateBody): Promise<void> {
      await loadBundle(venueId, id);
      await db.kysely
        .updateTable('bundles')
        .set({
          ...(body.name !== undefined ? { name: requiredText(body.name, 'name') } : {}),
          ...(body.applicable_profiles !== undefined ? { applicable_profiles: applicableProfiles(body.applicable_profiles) } : {}),
          updated_at: clock.now().toISOString(),
        })
        .where('id', '=', id)
        .execute();
    },

    async remove(venueId: string, id: string): Promise<void> {
      await loadBundle(venueId, id);
      await withTransaction(db, async (trx) => {
        // Access rules and profiles that offered it stop naming it.
        await references.repoint(trx, 'bundle', venueId, new Map([[id, null]]), clock.now().toISOString());
        await trx.deleteFrom('bundle_items').where('bundle_id', '=', id).execute();
        await trx.deleteFrom('bundles').where('id', '=', id).execute();
      });
    },

    async createItem(venueId: string, bundleId: string, body: ItemBody): Promise<string> {
      await loadBundle(venueId, bundleId);
      const id = newId('bni');
      const at = clock.now().toISOString();
      await db.kysely
        .insertInto('bundle_items')
        .values({
          id,
          venue_id: venueId,
          bundle_id: bundleId,
          name: requiredText(body.name, 'name'),
          price: body.price,
          max_qty: body.max_qty ?? null,
          image_url: body.image_url || null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await touch(bundleId);
      return id;
    },

    /** Fields left out keep their values; null clears max_qty and image_url. */
    async updateItem(venueId: string, bundleId: string, itemId: string, body: ItemUpdateBody): Promise<void> {
      await loadItem(venueId, bundleId, itemId);
      await db.kysely
        .updateTable('bundle_items')
        .set({
          ...(body.name !== undefined ? { name: requiredText(body.name, 'name') } : {}),
          ...(body.price !== undefined ? { price: body.price } : {}),
          ...(body.max_qty !== undefined ? { max_qty: body.max_qty } : {}),
          ...(body.image_url !== undefined ? { image_url: body.image_url || null } : {}),
          updated_at: clock.now().toISOString(),
        })
        .where('id', '=', itemId)
        .execute();
    },

    async removeItem(venueId: string, bundleId: string, itemId: string): Promise<void> {
      await loadItem(venueId, bundleId, itemId);
      await db.kysely.deleteFrom('bundle_items').where('id', '=', itemId).execute();
      await touch(bundleId);
    },

    async setItemImage(venueId: string, bundleId: string, itemId: string, data: unknown): Promise<string> {
      await loadItem(venueId, bundleId, itemId);
      const { url } = await uploads.saveImage(data, UPLOAD_LIMITS.bundleItemImage);
      await db.kysely
        .updateTable('bundle_items')
        .set({ image_url: url, updated_at: clock.now().toISOString() })
        .where('id', '=', itemId)
        .execute();
      return url;
    },
  };
}

export type BundlesService = ReturnType<typeof createBundlesService>;

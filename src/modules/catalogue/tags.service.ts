/**
 * Guest and reservation tags: the platform defaults (tags.defaults.ts) merged with a venue's custom
 * categories, custom tags and category flags. Names match case-insensitively, so "dietary" finds the
 * default "Dietary" and a second "VIP" is a duplicate.
 */
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import type { Executor } from '../profiles/references.js';
import type { CategoryBody, TagBody, TagKind } from './catalogue.schemas.js';
import { isUniqueViolation } from './promo-codes.service.js';
import { DEFAULT_TAG_CATALOGUE, type DefaultCategory } from './tags.defaults.js';

export interface CatalogueCategory {
  kind: TagKind;
  name: string;
  is_default: boolean;
  allow_guest_select: boolean;
  show_on_slip: boolean;
  show_in_summary: boolean;
  tags: { label: string; is_default: boolean }[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const FLAGS = ['allow_guest_select', 'show_on_slip', 'show_in_summary'] as const;

const fromDefault = (category: DefaultCategory): CatalogueCategory => ({
  kind: category.kind,
  name: category.name,
  is_default: true,
  allow_guest_select: category.allow_guest_select,
  show_on_slip: category.show_on_slip,
  show_in_summary: category.show_in_summary,
  tags: category.tags.map((label) => ({ label, is_default: true })),
});

/** The account-wide catalogue: the platform defaults of one kind or both. */
export function defaultCatalogue(kind?: TagKind): CatalogueCategory[] {
  return DEFAULT_TAG_CATALOGUE.filter((c) => !kind || c.kind === kind).map(fromDefault);
}

/** A venue's merged catalogue: defaults with its flag settings, then its custom categories; custom tags in their category. */
export async function venueTagCatalogue(db: Executor, venueId: string, kind?: TagKind): Promise<CatalogueCategory[]> {
  let categoriesQuery = db.selectFrom('tag_categories').selectAll().where('venue_id', '=', venueId);
  let tagsQuery = db.selectFrom('custom_tags').selectAll().where('venue_id', '=', venueId);
  if (kind) {
    categoriesQuery = categoriesQuery.where('kind', '=', kind);
    tagsQuery = tagsQuery.where('kind', '=', kind);
  }
  const [rows, tags] = await Promise.all([
    categoriesQuery.orderBy('created_at').orderBy('id').execute(),
    tagsQuery.orderBy('created_at').orderBy('id').execute(),
  ]);
  const catalogue = defaultCatalogue(kind);
  for (const row of rows) {
    const flags = { allow_guest_select: Boolean(row.allow_guest_select), show_on_slip: Boolean(row.show_on_slip), show_in_summary: Boolean(row.show_in_summary) };
    const existing = catalogue.find((c) => c.kind === row.kind && same(c.name, row.name));
    if (existing) Object.assign(existing, flags);
    else catalogue.push({ kind: row.kind as TagKind, name: row.name, is_default: false, ...flags, tags: [] });
  }
  for (const tag of tags) {
    catalogue.find((c) => c.kind === tag.kind && same(c.name, tag.category))?.tags.push({ label: tag.label, is_default: false });
  }
  return catalogue;
}

export function createTagsService(ctx: AppContext) {
  const { db, clock } = ctx;

  async function findCategory(venueId: string, kind: TagKind, name: string) {
    return (await venueTagCatalogue(db.kysely, venueId, kind)).find((c) => same(c.name, name));
  }

  const flagValues = (body: Partial<Record<(typeof FLAGS)[number], boolean | 0 | 1>>) =>
    Object.fromEntries(FLAGS.filter((flag) => body[flag] !== undefined).map((flag) => [flag, toFlag(body[flag]) as number]));

  return {
    venueCatalogue: (venueId: string, kind?: TagKind) => venueTagCatalogue(db.kysely, venueId, kind),

    async addTag(venueId: string, body: TagBody): Promise<void> {
      const label = body.label.trim();
      if (!label) throw badRequest('label must not be empty');
      const category = await findCategory(venueId, body.kind, body.category);
      if (!category) throw badRequest(`There is no ${body.kind} tag category named ${body.category.trim()}`);
      if (category.tags.some((tag) => same(tag.label, label))) throw conflict(`The tag ${label} already exists in ${category.name}`);
      try {
        await db.kysely
          .insertInto('custom_tags')
          .values({ id: newId('tag'), venue_id: venueId, kind: body.kind, category: category.name, label, created_at: clock.now().toISOString() })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`The tag ${label} already exists in ${category.name}`);
        throw error;
      }
    },

    /** Platform defaults are refused with 400; an unknown tag is 404. */
    async removeTag(venueId: string, query: TagBody): Promise<void> {
      const category = await findCategory(venueId, query.kind, query.category);
      const tag = category?.tags.find((t) => same(t.label, query.label));
      if (!category || !tag) throw notFound('Tag');
      if (tag.is_default) throw badRequest('Platform default tags cannot be removed');
      const rows = await db.kysely
        .selectFrom('custom_tags')
        .select(['id', 'label'])
        .where('venue_id', '=', venueId)
        .where('kind', '=', query.kind)
        .where('category', '=', category.name)
        .execute();
      const ids = rows.filter((row) => same(row.label, query.label)).map((row) => row.id);
      await db.kysely.deleteFrom('custom_tags').where('id', 'in', ids).execute();
    },

    async addCategory(venueId: string, body: CategoryBody): Promise<void> {
      const name = body.name.trim();
      if (!name) throw badRequest('name must not be empty');
      if (await findCategory(venueId, body.kind, name)) throw conflict(`The ${body.kind} tag category ${name} already exists`);
      const at = clock.now().toISOString();
      try {
        await db.kysely
          .insertInto('tag_categories')
          .values({ id: newId('tcat'), venue_id: venueId, kind: body.kind, name, custom: 1, ...flagValues(body), created_at: at, updated_at: at })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`The ${body.kind} tag category ${name} already exists`);
        throw error;
      }
    },

    /** Tunes the flags of a custom or a default category (the venue's setting for a default is kept as a row). */
    async tuneCategory(venueId: string, body: CategoryBody): Promise<void> {
      const category = await findCategory(venueId, body.kind, body.name);
      if (!category) throw notFound('Tag category');
      const changes = flagValues(body);
      if (Object.keys(changes).length === 0) throw badRequest('Send at least one of allow_guest_select, show_on_slip, show_in_summary');
      const at = clock.now().toISOString();
      const current = Object.fromEntries(FLAGS.map((flag) => [flag, category[flag] ? 1 : 0]));
      await db.kysely
        .insertInto('tag_categories')
        .values({
          id: newId('tcat'),
          venue_id: venueId,
          kind: body.kind,
          name: category.name,
          custom: category.is_default ? 0 : 1,
          ...current,
          ...changes,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.columns(['venue_id', 'kind', 'name']).doUpdateSet({ ...changes, updated_at: at }))
        .execute();
    },
  };
}

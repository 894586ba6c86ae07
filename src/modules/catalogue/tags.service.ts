/**
 * Guest and reservation tags at three levels, merged into one catalogue per kind:
 * - platform defaults (tags.defaults.ts): read-only, never removable;
 * - the operator account's custom categories and tags, and its flag settings for default categories
 *   (`/api/my/tag-*`): every venue of the account sees them;
 * - a venue's own custom categories and tags, and its flag settings for any category it sees.
 * A lower level's flags win (venue over account over platform). Names match case-insensitively, so
 * "dietary" finds the default "Dietary" and a second "VIP" is a duplicate; tags live under the
 * category's stored name. A venue cannot remove the platform's or the account's tags (400).
 */
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import { requiredText } from '../../platform/text.js';
import { operatorOfVenue } from '../venues/index.js';
import type { CategoryBody, TagBody, TagKind } from './catalogue.schemas.js';
import { DEFAULT_TAG_CATALOGUE, type DefaultCategory } from './tags.defaults.js';
import { accountTagStore, venueTagStore, type CategoryRow, type TagRow, type TagStore } from './tags.store.js';

/** Where a category or tag comes from, and so where it can be changed. */
export type TagScope = 'platform' | 'account' | 'venue';

export interface CatalogueTag {
  label: string;
  is_default: boolean;
  scope: TagScope;
}

export interface CatalogueCategory {
  kind: TagKind;
  name: string;
  is_default: boolean;
  scope: TagScope;
  allow_guest_select: boolean;
  show_on_slip: boolean;
  show_in_summary: boolean;
  tags: CatalogueTag[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const FLAGS = ['allow_guest_select', 'show_on_slip', 'show_in_summary'] as const;
/** A new custom category's flags, before those the request sets. */
const NO_FLAGS = { allow_guest_select: 0, show_on_slip: 0, show_in_summary: 0 };

const fromDefault = (category: DefaultCategory): CatalogueCategory => ({
  kind: category.kind,
  name: category.name,
  is_default: true,
  scope: 'platform',
  allow_guest_select: category.allow_guest_select,
  show_on_slip: category.show_on_slip,
  show_in_summary: category.show_in_summary,
  tags: category.tags.map((label) => ({ label, is_default: true, scope: 'platform' })),
});

/** The platform defaults of one kind or both. */
function defaultCatalogue(kind?: TagKind): CatalogueCategory[] {
  return DEFAULT_TAG_CATALOGUE.filter((c) => !kind || c.kind === kind).map(fromDefault);
}

/**
 * Lays one level's rows over the catalogue of the levels above: a row naming a category that exists
 * sets the flags it holds (null: unchanged), and a custom row of the same name as a category the account
 * added later folds into it; a custom row adds a category, and a flags row for a category that no longer
 * exists is ignored. Tags join their category unless a tag of that label is already there.
 */
function overlay(catalogue: CatalogueCategory[], categories: CategoryRow[], tags: TagRow[], scope: TagScope) {
  for (const row of categories) {
    const existing = catalogue.find((c) => c.kind === row.kind && same(c.name, row.name));
    if (existing) {
      for (const flag of FLAGS) if (row[flag] !== null) existing[flag] = Boolean(row[flag]);
    } else if (row.custom) {
      const flags = Object.fromEntries(FLAGS.map((flag) => [flag, Boolean(row[flag])])) as Record<(typeof FLAGS)[number], boolean>;
      catalogue.push({ kind: row.kind as TagKind, name: row.name, is_default: false, scope, ...flags, tags: [] });
    }
  }
  for (const tag of tags) {
    const category = catalogue.find((c) => c.kind === tag.kind && same(c.name, tag.category));
    if (!category || category.tags.some((t) => same(t.label, tag.label))) continue;
    category.tags.push({ label: tag.label, is_default: false, scope });
  }
  return catalogue;
}

async function levelRows(store: TagStore, kind?: TagKind) {
  const [categories, tags] = await Promise.all([store.categories(kind), store.tags(kind)]);
  return { categories, tags };
}

/** Account-wide writes reach every venue, so a role limited to some venues may not make them. */
function accountOf(auth: AuthInfo): string {
  if (!auth.operatorId) throw forbidden();
  if (auth.venueScope !== null) throw forbidden('Account-wide tags need a role that covers every venue of the account.');
  return auth.operatorId;
}

export function createTagsService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const accountLevel = (operatorId: string) => accountTagStore(db, operatorId);
  const venueLevel = (venueId: string) => venueTagStore(db, venueId);

  /** An account's catalogue: the platform defaults with the account's categories, tags and flags. */
  async function accountCatalogue(operatorId: string, kind?: TagKind): Promise<CatalogueCategory[]> {
    const rows = await levelRows(accountLevel(operatorId), kind);
    return overlay(defaultCatalogue(kind), rows.categories, rows.tags, 'account');
  }

  /** A venue's merged catalogue: its account's catalogue with the venue's own categories, tags and flags. */
  async function venueCatalogue(venueId: string, kind?: TagKind): Promise<CatalogueCategory[]> {
    const operatorId = await operatorOfVenue(db, venueId);
    const [base, rows] = await Promise.all([
      operatorId ? accountCatalogue(operatorId, kind) : Promise.resolve(defaultCatalogue(kind)),
      levelRows(venueLevel(venueId), kind),
    ]);
    return overlay(base, rows.categories, rows.tags, 'venue');
  }

  /** The catalogue a level's writes are checked against: what that level (and the ones above it) sees. */
  const catalogueOf = (level: TagStore, kind: TagKind) =>
    level.scope === 'venue' ? venueCatalogue(level.ownerId, kind) : accountCatalogue(level.ownerId, kind);

  async function findCategory(level: TagStore, kind: TagKind, name: string) {
    return (await catalogueOf(level, kind)).find((c) => same(c.name, name));
  }

  const flagValues = (body: Partial<Record<(typeof FLAGS)[number], boolean | 0 | 1>>) =>
    Object.fromEntries(FLAGS.filter((flag) => body[flag] !== undefined).map((flag) => [flag, toFlag(body[flag]) as number]));

  async function addTag(level: TagStore, body: TagBody): Promise<void> {
    const label = requiredText(body.label, 'label');
    const category = await findCategory(level, body.kind, body.category);
    if (!category) throw badRequest(`There is no ${body.kind} tag category named ${body.category.trim()}`);
    const taken = () => conflict(`The tag ${label} already exists in ${category.name}`);
    if (category.tags.some((tag) => same(tag.label, label))) throw taken();
    try {
      await level.insertTag({ id: newId('tag'), kind: body.kind, category: category.name, label, created_at: clock.now().toISOString() });
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** A level removes only its own tags: platform defaults and (for a venue) the account's are 400; unknown tags 404. */
  async function removeTag(level: TagStore, query: TagBody): Promise<void> {
    const category = await findCategory(level, query.kind, query.category);
    const tag = category?.tags.find((t) => same(t.label, query.label));
    if (!category || !tag) throw notFound('Tag');
    if (tag.scope === 'platform') throw badRequest('Platform default tags cannot be removed');
    if (tag.scope !== level.scope) throw badRequest('This tag belongs to the whole account: remove it through DELETE /api/my/tags');
    // Case-insensitive in JS rather than SQL lower(), which folds only ASCII on SQLite.
    const rows = await level.tags(query.kind);
    await level.deleteTags(rows.filter((row) => same(row.category, category.name) && same(row.label, query.label)).map((row) => row.id));
  }

  async function addCategory(level: TagStore, body: CategoryBody): Promise<void> {
    const name = requiredText(body.name, 'name');
    const taken = () => conflict(`The ${body.kind} tag category ${name} already exists`);
    if (await findCategory(level, body.kind, name)) throw taken();
    const at = clock.now().toISOString();
    try {
      await level.insertCategory({ id: newId('tcat'), kind: body.kind, name, custom: 1, ...NO_FLAGS, ...flagValues(body), created_at: at });
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** The level's own row for a category (its custom category, or its flags for one above), any case. */
  async function ownCategoryRow(level: TagStore, kind: TagKind, name: string) {
    return (await level.categories(kind)).find((row) => same(row.name, name));
  }

  /** Tunes the flags of any category the level sees; the setting is kept as the level's own row. */
  async function tuneCategory(level: TagStore, body: CategoryBody): Promise<void> {
    const category = await findCategory(level, body.kind, body.name);
    if (!category) throw notFound('Tag category');
    const changes = flagValues(body);
    if (Object.keys(changes).length === 0) throw badRequest('Send at least one of allow_guest_select, show_on_slip, show_in_summary');
    const at = clock.now().toISOString();
    const update = (id: string) => level.updateCategory(id, { ...changes, updated_at: at });
    const own = await ownCategoryRow(level, body.kind, category.name);
    if (own) {
      await update(own.id);
      return;
    }
    try {
      // custom 0: only the flags this level changed for a category of a level above; the others stay null and
      // keep following that level. (The level's own categories have a row already.)
      await level.insertCategory({ id: newId('tcat'), kind: body.kind, name: category.name, custom: 0, ...changes, created_at: at });
    } catch (error) {
      // Another writer created the row meanwhile: tune that one.
      const raced = isUniqueViolation(error) ? await ownCategoryRow(level, body.kind, category.name) : undefined;
      if (!raced) throw error;
      await update(raced.id);
    }
  }

  return {
    venueCatalogue,
    addTag: (venueId: string, body: TagBody) => addTag(venueLevel(venueId), body),
    removeTag: (venueId: string, query: TagBody) => removeTag(venueLevel(venueId), query),
    addCategory: (venueId: string, body: CategoryBody) => addCategory(venueLevel(venueId), body),
    tuneCategory: (venueId: string, body: CategoryBody) => tuneCategory(venueLevel(venueId), body),

    accountCatalogue,
    addAccountTag: (auth: AuthInfo, body: TagBody) => addTag(accountLevel(accountOf(auth)), body),
    removeAccountTag: (auth: AuthInfo, query: TagBody) => removeTag(accountLevel(accountOf(auth)), query),
    addAccountCategory: (auth: AuthInfo, body: CategoryBody) => addCategory(accountLevel(accountOf(auth)), body),
    tuneAccountCategory: (auth: AuthInfo, body: CategoryBody) => tuneCategory(accountLevel(accountOf(auth)), body),
  };
}

export type TagsService = ReturnType<typeof createTagsService>;

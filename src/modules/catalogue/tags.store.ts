/**
 * Where one level of the tag catalogue is stored: the account's tables (`account_tag_categories`,
 * `account_tags`, owned by `operator_id`) or a venue's (`tag_categories`, `custom_tags`, owned by
 * `venue_id`). The two pairs have the same shape; each store is the typed access to one pair, so the
 * catalogue logic in tags.service.ts is written once.
 */
import type { Db } from '../../db/connect.js';
import type { TagKind } from './catalogue.schemas.js';

export interface CategoryRow {
  id: string;
  kind: string;
  name: string;
  custom: number;
  allow_guest_select: number | null;
  show_on_slip: number | null;
  show_in_summary: number | null;
}

export interface TagRow {
  id: string;
  kind: string;
  category: string;
  label: string;
}

export type CategoryFlags = Partial<Pick<CategoryRow, 'allow_guest_select' | 'show_on_slip' | 'show_in_summary'>>;
export type NewCategory = Omit<CategoryRow, 'allow_guest_select' | 'show_on_slip' | 'show_in_summary'> &
  CategoryFlags & { created_at: string };
export type NewTag = TagRow & { created_at: string };

export interface TagStore {
  scope: 'account' | 'venue';
  /** The account or venue id the level belongs to. */
  ownerId: string;
  /** The level's categories and tags (of one kind or both), oldest first. */
  categories(kind?: TagKind): Promise<CategoryRow[]>;
  tags(kind?: TagKind): Promise<TagRow[]>;
  insertCategory(row: NewCategory): Promise<void>;
  updateCategory(id: string, changes: CategoryFlags & { updated_at: string }): Promise<void>;
  insertTag(row: NewTag): Promise<void>;
  deleteTags(ids: string[]): Promise<void>;
}

const CATEGORY_COLUMNS = ['id', 'kind', 'name', 'custom', 'allow_guest_select', 'show_on_slip', 'show_in_summary'] as const;
const TAG_COLUMNS = ['id', 'kind', 'category', 'label'] as const;

export function accountTagStore(db: Db, operatorId: string): TagStore {
  const k = db.kysely;
  return {
    scope: 'account',
    ownerId: operatorId,
    categories: (kind) =>
      k
        .selectFrom('account_tag_categories')
        .select([...CATEGORY_COLUMNS])
        .where('operator_id', '=', operatorId)
        .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    tags: (kind) =>
      k
        .selectFrom('account_tags')
        .select([...TAG_COLUMNS])
        .where('operator_id', '=', operatorId)
        .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    insertCategory: async (row) => {
      await k
        .insertInto('account_tag_categories')
        .values({ ...row, operator_id: operatorId, updated_at: row.created_at })
        .execute();
    },
    updateCategory: async (id, changes) => {
      await k.updateTable('account_tag_categories').set(changes).where('id', '=', id).where('operator_id', '=', operatorId).execute();
    },
    insertTag: async (row) => {
      await k
        .insertInto('account_tags')
        .values({ ...row, operator_id: operatorId })
        .execute();
    },
    deleteTags: async (ids) => {
      if (ids.length) await k.deleteFrom('account_tags').where('id', 'in', ids).where('operator_id', '=', operatorId).execute();
    },
  };
}

export function venueTagStore(db: Db, venueId: string): TagStore {
  const k = db.kysely;
  return {
    scope: 'venue',
    ownerId: venueId,
    categories: (kind) =>
      k
        .selectFrom('tag_categories')
        .select([...CATEGORY_COLUMNS])
        .where('venue_id', '=', venueId)
        .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    tags: (kind) =>
      k
        .selectFrom('custom_tags')
        .select([...TAG_COLUMNS])
        .where('venue_id', '=', venueId)
        .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    insertCategory: async (row) => {
      await k
        .insertInto('tag_categories')
        .values({ ...row, venue_id: venueId, updated_at: row.created_at })
        .execute();
    },
    updateCategory: async (id, changes) => {
      await k.updateTable('tag_categories').set(changes).where('id', '=', id).where('venue_id', '=', venueId).execute();
    },
    insertTag: async (row) => {
      await k
        .insertInto('custom_tags')
        .values({ ...row, venue_id: venueId })
        .execute();
    },
    deleteTags: async (ids) => {
      if (ids.length) await k.deleteFrom('custom_tags').where('id', 'in', ids).where('venue_id', '=', venueId).execute();
    },
  };
}

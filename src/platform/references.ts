/**
 * References between modules' rows, kept consistent without any module touching another's tables.
 *
 * A module that owns a kind of row (tables own `table`, profiles own `payment_policy`…) registers an
 * owner: how to list a venue's rows of that kind with their matching key (name, code, table number).
 * A module whose rows point at another kind registers a repointer for it: how to re-point or clear its
 * own references when rows of that kind are deleted (mapped to null) or replaced by copies (mapped to
 * the copy). The owner calls `repoint` when it deletes or replaces rows; every repointer runs in the
 * owner's transaction. Registration happens once, in the composition root (src/modules/index.ts).
 */
import type { Conn } from '../db/transaction.js';
import type { IdRemap } from '../db/json.js';

export type ReferenceKind =
  | 'time_period'
  | 'seating_area'
  | 'table'
  | 'pricelist'
  | 'payment_policy'
  | 'admission_group'
  | 'list_profile'
  | 'table_profile'
  | 'event_profile'
  | 'ticket_profile'
  | 'bundle'
  | 'promo_code';

/** A row of some kind with the key that identifies it across venues (name, code, table number). */
export interface Keyed {
  id: string;
  key: string;
}

/**
 * How the owner lists a venue's rows of the kind with their keys, oldest first. Venue configuration is
 * small (tens or hundreds of rows), so checking ids reads the same list.
 */
export type ReferenceOwner = (db: Conn, venueId: string) => Promise<Keyed[]>;

/** Re-points (or clears, for ids mapped to null) the caller's references to rows of a kind at a venue. */
export type Repointer = (db: Conn, venueId: string, remap: IdRemap, now: string) => Promise<void>;

/**
 * Old id → new id by a matching key; ids whose key has no counterpart map to null. When several rows of
 * `to` share a key, the first (oldest) wins. Used both to translate a source venue's ids to a target
 * venue's (copy-from) and to re-point references from replaced rows to their copies.
 */
export function matchByKey(from: readonly Keyed[], to: readonly Keyed[]): Map<string, string | null> {
  const byKey = new Map<string, string>();
  for (const row of to) if (!byKey.has(row.key)) byKey.set(row.key, row.id);
  return new Map(from.map((row) => [row.id, byKey.get(row.key) ?? null]));
}

export class References {
  private readonly owners = new Map<ReferenceKind, ReferenceOwner>();
  private readonly repointers = new Map<ReferenceKind, Repointer[]>();

  own(kind: ReferenceKind, owner: ReferenceOwner): void {
    if (this.owners.has(kind)) throw new Error(`reference kind "${kind}" has two owners`);
    this.owners.set(kind, owner);
  }

  onRepoint(kind: ReferenceKind, repointer: Repointer): void {
    this.repointers.set(kind, [...(this.repointers.get(kind) ?? []), repointer]);
  }

  private owner(kind: ReferenceKind): ReferenceOwner {
    const owner = this.owners.get(kind);
    if (!owner) throw new Error(`reference kind "${kind}" has no owner registered`);
    return owner;
  }

  /** The ids among `ids` that are not rows of the kind at the venue (each once). */
  async missing(db: Conn, kind: ReferenceKind, venueId: string, ids: readonly string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = new Set((await this.owner(kind)(db, venueId)).map((row) => row.id));
    return unique.filter((id) => !found.has(id));
  }

  keyed(db: Conn, kind: ReferenceKind, venueId: string): Promise<Keyed[]> {
    return this.owner(kind)(db, venueId);
  }

  /** Translates ids of the source venue's rows to the target venue's rows of the same key (unmatched: null). */
  async translator(db: Conn, kind: ReferenceKind, sourceVenueId: string, targetVenueId: string) {
    const mapping = matchByKey(await this.keyed(db, kind, sourceVenueId), await this.keyed(db, kind, targetVenueId));
    return {
      one: (id: unknown): string | null => (typeof id === 'string' ? (mapping.get(id) ?? null) : null),
      many: (ids: unknown): string[] =>
        Array.isArray(ids) ? [...new Set(ids.map((id) => mapping.get(id as string)).filter((id): id is string => Boolean(id)))] : [],
    };
  }

  /** Runs every registered repointer of the kind; a no-op for an empty remap. */
  async repoint(db: Conn, kind: ReferenceKind, venueId: string, remap: IdRemap, now: string): Promise<void> {
    if (remap.size === 0) return;
    for (const repointer of this.repointers.get(kind) ?? []) await repointer(db, venueId, remap, now);
  }
}

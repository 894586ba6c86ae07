/**
 * The four profile families (list, table, event, ticket) through one implementation over the
 * `profiles` table: create and update validate the family's settings (paired toggle values, ranges, and
 * that every id it names is one of the venue's own rows); delete detaches the profile from what referred
 * to it.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { kyselyOf, withTransaction, type Conn } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { ReferenceKind, References } from '../../platform/references.js';
import { requiredText } from '../../platform/text.js';
import { familyDefaults, FAMILIES, pickSettings, PROFILE_COLUMNS, settingsProblem, type FamilyDef } from './profiles.families.js';
import type { ProfileFamily, ProfilesTable } from './profiles.table.js';
import { PROFILE_KINDS } from './references.js';

type ProfileRow = Selectable<ProfilesTable>;
type Body = Record<string, unknown> & { name: string };

export type Profile = { id: string; family: string; name: string; created_at: string; updated_at: string } & Record<string, unknown>;

/** A stored profile as the API answers it: the family's defaults overlaid with what was saved. */
export function toProfile(row: ProfileRow): Profile {
  const def = FAMILIES[row.family];
  const stored = JSON.parse(row.settings) as Record<string, unknown>;
  const settings = familyDefaults(def);
  for (const key of Object.keys(settings)) {
    if (PROFILE_COLUMNS.includes(key as (typeof PROFILE_COLUMNS)[number])) settings[key] = row[key as (typeof PROFILE_COLUMNS)[number]];
    else if (stored[key] !== undefined) settings[key] = stored[key];
  }
  return { id: row.id, family: row.family, name: row.name, ...settings, created_at: row.created_at, updated_at: row.updated_at };
}

/** Splits merged settings into the row's reference columns and its settings JSON. */
function toColumns(settings: Record<string, unknown>) {
  const json: Record<string, unknown> = {};
  const columns: Partial<Record<(typeof PROFILE_COLUMNS)[number], string | null>> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (PROFILE_COLUMNS.includes(key as (typeof PROFILE_COLUMNS)[number]))
      columns[key as (typeof PROFILE_COLUMNS)[number]] = (value as string | null) ?? null;
    else json[key] = value;
  }
  return { settings: JSON.stringify(json), ...columns };
}

/** Each id-valued setting and the kind of row its ids must name (rows of other modules included). */
const REFERENCES: { key: string; kind: ReferenceKind; label: string }[] = [
  { key: 'admission_rule_group_id', kind: 'admission_group', label: 'admission groups' },
  { key: 'payment_policy_id', kind: 'payment_policy', label: 'payment policies' },
  { key: 'pricelist_id', kind: 'pricelist', label: 'price lists' },
  { key: 'bundle_ids', kind: 'bundle', label: 'bundles' },
  { key: 'promo_code_ids', kind: 'promo_code', label: 'promo codes' },
  { key: 'seating_area_ids', kind: 'seating_area', label: 'seating areas' },
  { key: 'guest_pick_area_ids', kind: 'seating_area', label: 'seating areas' },
  { key: 'table_ids', kind: 'table', label: 'tables' },
];

/**
 * Every id a write names must be one of this venue's rows: an id of another venue, or of another
 * operator, is refused. Only the values being written are checked; what is stored is kept in step by
 * the modules that delete those rows.
 */
async function referenceProblem(
  references: References,
  db: Conn,
  venueId: string,
  written: Record<string, unknown>,
): Promise<string | undefined> {
  for (const { key, kind, label } of REFERENCES) {
    const value = written[key];
    const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : [];
    if ((await references.missing(db, kind, venueId, ids)).length > 0) {
      return typeof value === 'string'
        ? `${key} does not name one of this venue's ${label}`
        : `${key} contains ids that are not this venue's ${label}`;
    }
  }
  return undefined;
}

export async function listProfiles(db: Conn, venueId: string, family?: ProfileFamily) {
  let query = kyselyOf(db).selectFrom('profiles').selectAll().where('venue_id', '=', venueId);
  if (family) query = query.where('family', '=', family);
  return query.orderBy('created_at').orderBy('id').execute();
}

export function createProfilesService(deps: { db: Db; clock: Clock; references: References }) {
  const { db, clock, references } = deps;

  async function load(venueId: string, def: FamilyDef, id: string) {
    const row = await db.kysely
      .selectFrom('profiles')
      .selectAll()
      .where('venue_id', '=', venueId)
      .where('family', '=', def.family)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(def.label);
    return row;
  }

  /** The checked name and merged settings; references are checked inside the writing transaction. */
  async function validated(trx: Conn, venueId: string, def: FamilyDef, base: Record<string, unknown>, body: Body) {
    const name = requiredText(body.name, 'name');
    const written = pickSettings(def, body);
    const settings = { ...base, ...written };
    const problem = settingsProblem(def, settings) ?? (await referenceProblem(references, trx, venueId, written));
    if (problem) throw badRequest(problem);
    return { name, settings };
  }

  return {
    async list(venueId: string, family: ProfileFamily) {
      return (await listProfiles(db.kysely, venueId, family)).map(toProfile);
    },

    async create(venueId: string, family: ProfileFamily, body: Body): Promise<string> {
      const def = FAMILIES[family];
      const id = newId('prf');
      const at = clock.now().toISOString();
      // One transaction: on SQLite a concurrent delete of a referenced row cannot slip between check and write.
      await withTransaction(db, async (trx) => {
        const { name, settings } = await validated(trx, venueId, def, familyDefaults(def), body);
        await trx
          .insertInto('profiles')
          .values({ id, venue_id: venueId, family, name, ...toColumns(settings), created_at: at, updated_at: at })
          .execute();
      });
      return id;
    },

    /** Fields left out of the body keep their stored values; `name` is always required. */
    async update(venueId: string, family: ProfileFamily, id: string, body: Body): Promise<void> {
      const def = FAMILIES[family];
      const current = toProfile(await load(venueId, def, id));
      await withTransaction(db, async (trx) => {
        const { name, settings } = await validated(trx, venueId, def, current, body);
        const stored = Object.fromEntries(Object.keys(def.fields).map((key) => [key, settings[key]]));
        await trx
          .updateTable('profiles')
          .set({ name, ...toColumns(stored), updated_at: clock.now().toISOString() })
          .where('id', '=', id)
          .where('venue_id', '=', venueId)
          .execute();
      });
    },

    async remove(venueId: string, family: ProfileFamily, id: string): Promise<void> {
      const def = FAMILIES[family];
      await load(venueId, def, id);
      await withTransaction(db, async (trx) => {
        // Access rules (and ticket types) that used it stop naming it.
        await references.repoint(trx, PROFILE_KINDS[family], venueId, new Map([[id, null]]), clock.now().toISOString());
        await trx.deleteFrom('profiles').where('id', '=', id).where('venue_id', '=', venueId).execute();
      });
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;

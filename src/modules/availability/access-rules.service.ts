/**
 * Access rules: the bookable offers guests pick. Every feature is a `*_enabled` toggle with paired
 * values that apply only while it is on; a toggle turned on must come with its values. References to
 * profiles, payment policies, price lists, bundles, areas and tables must be rows of the same venue.
 * The venue is bookable on discovery surfaces while it has at least one rule.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { parseIdArray } from '../../db/json.js';
import { withTransaction } from '../../db/transaction.js';
import type { Audit } from '../../platform/audit.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { byName, requiredText } from '../../platform/text.js';
import { UPLOAD_LIMITS, type Uploads } from '../../platform/uploads.js';
import { assertReferences, syncBookable } from './availability.repository.js';
import { ACCESS_RULE_LISTS, ACCESS_RULE_TOGGLES, DOOR_PRICING, type AccessRuleBody } from './availability.schemas.js';
import { checkWindow, distinct, normaliseDays } from './availability.service.js';
import { DAYS_OF_WEEK, type AccessRulesTable } from './availability.table.js';

type RuleRow = Selectable<AccessRulesTable>;
export type RuleValues = Omit<RuleRow, 'id' | 'venue_id' | 'created_at' | 'updated_at'>;

/** Row → response: toggles as booleans, JSON lists as arrays. */
export function toAccessRule(row: RuleRow) {
  const { venue_id: _v, created_at: _c, updated_at: _u, ...fields } = row;
  const out: Record<string, unknown> = { ...fields };
  for (const key of ACCESS_RULE_TOGGLES) out[key] = Boolean(row[key]);
  for (const key of ACCESS_RULE_LISTS) out[key] = parseIdArray(row[key]);
  return out as Omit<RuleValues, (typeof ACCESS_RULE_TOGGLES)[number] | (typeof ACCESS_RULE_LISTS)[number]> & { id: string } & Record<
      (typeof ACCESS_RULE_TOGGLES)[number],
      boolean
    > &
    Record<(typeof ACCESS_RULE_LISTS)[number], string[]>;
}

function requireWhenOn(on: number, field: string, ...values: unknown[]) {
  if (on && values.some((value) => value === null || value === undefined)) {
    throw badRequest(`${field} is on, so its value${values.length > 1 ? 's are' : ' is'} required`);
  }
}

export function createAccessRulesService(deps: {
  db: Db;
  clock: Clock;
  references: References;
  audit: Audit;
  uploads: Pick<Uploads, 'saveImage'>;
  publicBaseUrl: string;
}) {
  const db = deps.db.kysely;
  const now = () => deps.clock.now().toISOString();
  const uploadsPrefix = `${deps.publicBaseUrl}/uploads/`;

  async function ruleOf(venueId: string, id: string) {
    const row = await db.selectFrom('access_rules').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Access rule');
    return row;
  }

  /** The stored rule for a body: omitted fields take their defaults, except the uploaded image, which is kept. */
  async function ruleValues(venueId: string, body: AccessRuleBody, current?: RuleRow): Promise<RuleValues> {
    const flag = (key: (typeof ACCESS_RULE_TOGGLES)[number]) => toFlag(body[key]) ?? 0;
    const toggles = Object.fromEntries(ACCESS_RULE_TOGGLES.map((key) => [key, flag(key)])) as Record<
      (typeof ACCESS_RULE_TOGGLES)[number],
      number
    >;

    const time_from = body.time_from ?? null;
    const time_to = body.time_to ?? null;
    checkWindow(time_from, time_to);

    const party_size_min = body.party_size_min ?? null;
    const party_size_max = body.party_size_max ?? null;
    requireWhenOn(toggles.party_size_enabled, 'party_size_enabled', party_size_min, party_size_max);
    if (party_size_min !== null && party_size_max !== null && party_size_min > party_size_max) {
      throw badRequest('party_size_min must not exceed party_size_max');
    }

    const duration_minutes = body.duration_minutes ?? null;
    requireWhenOn(toggles.duration_enabled, 'duration_enabled', duration_minutes);

    const display_title = body.display_title ?? null;
    requireWhenOn(toggles.display_enabled, 'display_enabled', display_title);
    let display_image_url = current?.display_image_url ?? null;
    if (body.display_image_url !== undefined) {
      // The image is set by the upload route; a body may clear it or repeat an uploaded one, nothing else.
      if (body.display_image_url !== null && !body.display_image_url.startsWith(uploadsPrefix)) {
        throw badRequest('display_image_url must be an image uploaded through the access-rule image route');
      }
      display_image_url = body.display_image_url;
    }

    const seating_area_ids = distinct(body.seating_area_ids);
    const table_ids = distinct(body.table_ids);
    if (toggles.seating_enabled && seating_area_ids.length + table_ids.length === 0) {
      throw badRequest('seating_enabled is on, so seating_area_ids or table_ids must name at least one');
    }
    const bundle_ids = distinct(body.bundle_ids);
    if (toggles.bundles_enabled && bundle_ids.length === 0) throw badRequest('bundles_enabled is on, so bundle_ids must name at least one');
    const guest_pick_area_ids = distinct(body.guest_pick_area_ids);

    const booking_cutoff_value = body.booking_cutoff_value ?? null;
    const booking_cutoff_unit = body.booking_cutoff_unit ?? null;
    const booking_start_value = body.booking_start_value ?? null;
    const booking_start_unit = body.booking_start_unit ?? null;
    if ((booking_cutoff_value === null) !== (booking_cutoff_unit === null))
      throw badRequest('booking_cutoff_value and booking_cutoff_unit must be given together');
    if ((booking_start_value === null) !== (booking_start_unit === null))
      throw badRequest('booking_start_value and booking_start_unit must be given together');
    if (toggles.booking_window_enabled && booking_cutoff_value === null && booking_start_value === null) {
      throw badRequest('booking_window_enabled is on, so booking_cutoff_* or booking_start_* is required');
    }

    const max_covers = body.max_covers ?? null;
    requireWhenOn(toggles.max_covers_enabled, 'max_covers_enabled', max_covers);

    const door = {} as Record<`${(typeof DOOR_PRICING)[number]}_value`, number | null>;
    for (const name of DOOR_PRICING) {
      const value = body[`${name}_value`] ?? null;
      requireWhenOn(toggles[`${name}_enabled`], `${name}_enabled`, value);
      door[`${name}_value`] = value;
    }

    const pricelist_id = body.pricelist_id ?? null;
    const payment_policy_id = body.payment_policy_id ?? null;
    const list_profile_id = body.list_profile_id ?? null;
    const table_profile_id = body.table_profile_id ?? null;
    await assertReferences(deps.references, db, venueId, [
      { field: 'guest_pick_area_ids', kind: 'seating_area', ids: guest_pick_area_ids },
      { field: 'seating_area_ids', kind: 'seating_area', ids: seating_area_ids },
      { field: 'table_ids', kind: 'table', ids: table_ids },
      { field: 'pricelist_id', kind: 'pricelist', ids: [pricelist_id] },
      { field: 'payment_policy_id', kind: 'payment_policy', ids: [payment_policy_id] },
      { field: 'list_profile_id', kind: 'list_profile', ids: [list_profile_id] },
      { field: 'table_profile_id', kind: 'table_profile', ids: [table_profile_id] },
      { field: 'bundle_ids', kind: 'bundle', ids: bundle_ids },
    ]);

    return {
      name: requiredText(body.name, 'name'),
      rule_type: body.rule_type ?? 'table',
      days_of_week: JSON.stringify(normaliseDays(body.days_of_week ?? DAYS_OF_WEEK)),
      time_from,
      time_to,
      ...toggles,
      party_size_min,
      party_size_max,
      table_assignment_mode: body.table_assignment_mode ?? 'auto',
      guest_pick_area_ids: JSON.stringify(guest_pick_area_ids),
      duration_minutes,
      display_title,
      display_description: body.display_description ?? null,
      display_image_url,
      seating_area_ids: JSON.stringify(seating_area_ids),
      table_ids: JSON.stringify(table_ids),
      bundle_ids: JSON.stringify(bundle_ids),
      booking_cutoff_value,
      booking_cutoff_unit,
      booking_start_value,
      booking_start_unit,
      max_covers,
      ...door,
      reservation_tags: JSON.stringify(distinct(body.reservation_tags?.map((tag) => tag.trim()).filter(Boolean))),
      pricelist_id,
      payment_policy_id,
      list_profile_id,
      table_profile_id,
    };
  }

  return {
    async list(venueId: string) {
      const rows = await db.selectFrom('access_rules').selectAll().where('venue_id', '=', venueId).execute();
      return rows.sort(byName).map(toAccessRule);
    },

    async create(venue: VenueRow, body: AccessRuleBody) {
      const values = await ruleValues(venue.id, body);
      const id = newId('rule');
      const at = now();
      await withTransaction(deps.db, async (trx) => {
        await trx
          .insertInto('access_rules')
          .values({ id, venue_id: venue.id, ...values, created_at: at, updated_at: at })
          .execute();
        await syncBookable(trx, venue.id, at);
        await deps.audit.record(trx, {
          action: 'access_rule.created',
          entityType: 'access_rule',
          entityId: id,
          venueId: venue.id,
          after: values,
        });
      });
      return id;
    },

    /** PUT takes the same body as create: omitted fields return to their defaults. */
    async update(venue: VenueRow, id: string, body: AccessRuleBody) {
      const current = await ruleOf(venue.id, id);
      const values = await ruleValues(venue.id, body, current);
      await withTransaction(deps.db, async (trx) => {
        await trx
          .updateTable('access_rules')
          .set({ ...values, updated_at: now() })
          .where('venue_id', '=', venue.id)
          .where('id', '=', id)
          .execute();
        await deps.audit.record(trx, {
          action: 'access_rule.updated',
          entityType: 'access_rule',
          entityId: id,
          venueId: venue.id,
          before: current,
          after: values,
        });
      });
    },

    async remove(venue: VenueRow, id: string) {
      const current = await ruleOf(venue.id, id);
      const at = now();
      await withTransaction(deps.db, async (trx) => {
        await trx.deleteFrom('access_rules').where('venue_id', '=', venue.id).where('id', '=', id).execute();
        await deps.audit.record(trx, {
          action: 'access_rule.deleted',
          entityType: 'access_rule',
          entityId: id,
          venueId: venue.id,
          before: current,
        });
        await syncBookable(trx, venue.id, at);
      });
    },

    async uploadImage(venue: VenueRow, id: string, data: string) {
      await ruleOf(venue.id, id);
      const { url } = await deps.uploads.saveImage(data, UPLOAD_LIMITS.accessRuleImage);
      await db
        .updateTable('access_rules')
        .set({ display_image_url: url, updated_at: now() })
        .where('venue_id', '=', venue.id)
        .where('id', '=', id)
        .execute();
      return url;
    },
  };
}

export type AccessRulesService = ReturnType<typeof createAccessRulesService>;

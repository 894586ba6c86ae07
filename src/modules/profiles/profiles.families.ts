/**
 * The four profile families as data: each family's settings fields (input schema, response schema,
 * default), which toggles need which paired values, and which fields are real columns. One generic
 * service and one set of routes serve all four from these definitions.
 */
import { Type, type TSchema } from 'typebox';
import { Nullable, Toggle } from '../../platform/http.js';
import type { ProfileFamily } from './profiles.table.js';

export const WINDOW_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;

interface FieldDef {
  input: TSchema;
  output: TSchema;
  default: unknown;
  /** Stored in its own column of `profiles` rather than in the settings JSON. */
  column?: true;
  /** Normalises an accepted input value for storage (toggles to booleans, arrays de-duplicated). */
  normalise?: (value: unknown) => unknown;
}

const toggle = (initial = false): FieldDef => ({ input: Toggle, output: Type.Boolean(), default: initial, normalise: (v) => Boolean(v) });
const amount = (): FieldDef => ({
  input: Nullable(Type.Number({ minimum: 0, maximum: 1e9 })),
  output: Nullable(Type.Number()),
  default: null,
});
const count = (minimum: number): FieldDef => ({
  input: Nullable(Type.Integer({ minimum, maximum: 100_000 })),
  output: Nullable(Type.Integer()),
  default: null,
});
const unit = (): FieldDef => ({
  input: Nullable(Type.Union(WINDOW_UNITS.map((u) => Type.Literal(u)))),
  output: Nullable(Type.String()),
  default: null,
});
const stringList = (): FieldDef => ({
  input: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 }),
  output: Type.Array(Type.String()),
  default: [],
  normalise: (v) => [...new Set(v as string[])],
});
const ref = (): FieldDef => ({
  input: Nullable(Type.String({ minLength: 1, maxLength: 100 })),
  output: Nullable(Type.String()),
  default: null,
  column: true,
});

const bookingWindow = {
  booking_window_enabled: toggle(),
  booking_cutoff_value: count(0),
  booking_cutoff_unit: unit(),
  booking_start_value: count(0),
  booking_start_unit: unit(),
};
const partySize = { party_size_enabled: toggle(), party_size_min: count(1), party_size_max: count(1) };
const maxCovers = { max_covers_enabled: toggle(), max_covers: count(1) };
const doorPricing = Object.fromEntries(
  ['venue_access', 'free_guest_list', 'paid_guest_list', 'queue_skip_price', 'surge_threshold', 'surge_price'].flatMap((key) => [
    [`${key}_enabled`, toggle()],
    [`${key}_value`, amount()],
  ]),
) as Record<string, FieldDef>;
const visibility = (): FieldDef => ({
  input: Type.String({ minLength: 1, maxLength: 50 }),
  output: Type.String(),
  default: 'public',
  normalise: (v) => String(v).trim(),
});

export interface FamilyDef {
  family: ProfileFamily;
  /** Path segment: `/api/my-venues/:venueId/<path>`. */
  path: string;
  label: string;
  fields: Record<string, FieldDef>;
  /** A toggle that is on needs these values. */
  pairs: Record<string, string[]>;
}

const doorPairs = Object.fromEntries(
  ['venue_access', 'free_guest_list', 'paid_guest_list', 'queue_skip_price', 'surge_threshold', 'surge_price'].map((key) => [
    `${key}_enabled`,
    [`${key}_value`],
  ]),
);

export const FAMILIES: Record<ProfileFamily, FamilyDef> = {
  list: {
    family: 'list',
    path: 'list-profiles',
    label: 'List profile',
    fields: { ...doorPricing, ...partySize, ...bookingWindow, ...maxCovers, admission_rule_group_id: ref() },
    pairs: { ...doorPairs, party_size_enabled: ['party_size_min', 'party_size_max'], max_covers_enabled: ['max_covers'] },
  },
  table: {
    family: 'table',
    path: 'table-profiles',
    label: 'Table profile',
    fields: {
      seating_area_ids: stringList(),
      table_ids: stringList(),
      payment_policy_id: ref(),
      duration_enabled: toggle(),
      duration_minutes: count(1),
      bundle_ids: stringList(),
      reservation_tags: stringList(),
      ...bookingWindow,
      ...maxCovers,
      table_assignment_mode: {
        input: Type.Union([Type.Literal('auto'), Type.Literal('guest_pick')]),
        output: Type.String(),
        default: 'auto',
      },
      guest_pick_area_ids: stringList(),
      pricelist_id: ref(),
      ...partySize,
    },
    pairs: {
      duration_enabled: ['duration_minutes'],
      party_size_enabled: ['party_size_min', 'party_size_max'],
      max_covers_enabled: ['max_covers'],
    },
  },
  event: {
    family: 'event',
    path: 'event-profiles',
    label: 'Event profile',
    fields: {
      payment_policy_id: ref(),
      ...bookingWindow,
      bundle_ids: stringList(),
      reservation_tags: stringList(),
      promo_code_ids: stringList(),
      visibility: visibility(),
      listed: toggle(true),
    },
    pairs: {},
  },
  ticket: {
    family: 'ticket',
    path: 'ticket-profiles',
    label: 'Ticket profile',
    fields: { ...bookingWindow, visibility: visibility(), booking_tags: stringList(), show_capacity: toggle() },
    pairs: {},
  },
};

export const PROFILE_COLUMNS = ['admission_rule_group_id', 'payment_policy_id', 'pricelist_id'] as const;

const ProfileName = Type.String({ minLength: 1, maxLength: 200 });

export function familyBody(def: FamilyDef) {
  return Type.Object({
    name: ProfileName,
    ...Object.fromEntries(Object.entries(def.fields).map(([key, field]) => [key, Type.Optional(field.input)])),
  });
}

export function familyResponse(def: FamilyDef) {
  return Type.Object({
    id: Type.String(),
    family: Type.String(),
    name: Type.String(),
    ...Object.fromEntries(Object.entries(def.fields).map(([key, field]) => [key, field.output])),
    created_at: Type.String(),
    updated_at: Type.String(),
  });
}

export const familyDefaults = (def: FamilyDef): Record<string, unknown> =>
  Object.fromEntries(Object.entries(def.fields).map(([key, field]) => [key, structuredClone(field.default)]));

/** The accepted body fields of a family, normalised; unknown keys (e.g. a read-back `id`) are dropped. */
export function pickSettings(def: FamilyDef, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(def.fields)) {
    if (body[key] === undefined) continue;
    const value = body[key];
    out[key] = value !== null && field.normalise ? field.normalise(value) : value;
  }
  return out;
}

/** The rules a schema cannot say: paired values of toggles that are on, ranges, units with values. */
export function settingsProblem(def: FamilyDef, settings: Record<string, unknown>): string | undefined {
  for (const [toggleKey, values] of Object.entries(def.pairs)) {
    if (!settings[toggleKey]) continue;
    const missing = values.find((key) => settings[key] === null || settings[key] === undefined);
    if (missing) return `${missing} is required when ${toggleKey} is on`;
  }
  const min = settings.party_size_min as number | null | undefined;
  const max = settings.party_size_max as number | null | undefined;
  if (min != null && max != null && min > max) return 'party_size_min must not exceed party_size_max';
  if ('booking_window_enabled' in def.fields) {
    for (const prefix of ['booking_cutoff', 'booking_start']) {
      if (settings[`${prefix}_value`] != null && settings[`${prefix}_unit`] == null)
        return `${prefix}_unit is required with ${prefix}_value`;
    }
    if (settings.booking_window_enabled && settings.booking_cutoff_value == null && settings.booking_start_value == null) {
      return 'booking_cutoff_value or booking_start_value is required when booking_window_enabled is on';
    }
  }
  return undefined;
}

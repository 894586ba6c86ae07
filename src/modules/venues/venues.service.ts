/**
 * Venues of an operator account: list, create, partial update with the spec's validations, go-live and
 * back-to-draft transitions, app-listing requests, sister links and the venue logo.
 */
import type { Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { Audit } from '../../platform/audit.js';
import { isValidTimezone, localToday } from '../../domain/venue-time.js';
import type { AuthInfo, Guard, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import { UPLOAD_LIMITS, type Uploads } from '../../platform/uploads.js';
import type { VenueBookingFacts } from './booking-facts.js';
import { operatorStats, venueStats } from './venues.stats.js';
import type { VenuesTable } from './venues.table.js';
import { DAYS, FOOD_VENUE_TYPES, type CreateVenueBody, type OpeningHours, type UpdateVenueBody, type Venue } from './venues.schemas.js';

const parseJson = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The one row → response mapping of a venue. */
export function toVenue(row: VenueRow): Venue {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    status: row.status,
    app_listing_status: row.app_listing_status,
    venue_type: row.venue_type,
    food_types: parseJson(row.food_types) as Venue['food_types'],
    phone: row.phone,
    email: row.email,
    backdoor_capacity: row.backdoor_capacity,
    queue_skip_price: row.queue_skip_price,
    surge_threshold: row.surge_threshold,
    surge_price: row.surge_price,
    last_entry_time: row.last_entry_time,
    max_plus_ones: row.max_plus_ones,
    members_only: row.members_only,
    opening_hours: parseJson(row.opening_hours) as Venue['opening_hours'],
    guest_list_enabled: Boolean(row.guest_list_enabled),
    tables_enabled: Boolean(row.tables_enabled),
    paid_guest_list_enabled: Boolean(row.paid_guest_list_enabled),
    booking_policy: row.booking_policy,
    default_booking_duration: row.default_booking_duration,
    check_in_window_minutes: row.check_in_window_minutes,
    default_party_min: row.default_party_min,
    default_party_max: row.default_party_max,
    booking_cutoff_value: row.booking_cutoff_value,
    booking_cutoff_unit: row.booking_cutoff_unit,
    booking_start_value: row.booking_start_value,
    booking_start_unit: row.booking_start_unit,
    website: row.website,
    description: row.description,
    marketing_sender_name: row.marketing_sender_name,
    marketing_reply_to: row.marketing_reply_to,
    instagram_url: row.instagram_url,
    tiktok_url: row.tiktok_url,
    twitter_url: row.twitter_url,
    logo_url: row.logo_url,
    cover_image_url: row.cover_image_url,
    timezone: row.timezone,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const WEEK = 7 * 24 * 60;

/**
 * Rules the schema cannot say: a period is not empty, and no two periods overlap, including one that
 * runs past midnight into the next day's first period (Sunday night runs into Monday).
 */
export function checkOpeningHours(hours: OpeningHours): void {
  const spans = DAYS.flatMap((day, index) =>
    (hours[day] ?? []).map(({ open, close }) => {
      if (open === close) throw badRequest(`opening_hours.${day}: open and close cannot both be ${open}`);
      const start = index * 24 * 60 + minutesOf(open);
      const end = start + ((minutesOf(close) - minutesOf(open) + 24 * 60) % (24 * 60));
      return { start, end, label: `${day} ${open}–${close}` };
    }),
  );
  spans.sort((a, b) => a.start - b.start);
  for (let i = 0; i < spans.length; i++) {
    const next = spans[(i + 1) % spans.length];
    const nextStart = i + 1 < spans.length ? next.start : next.start + WEEK;
    if (spans.length > 1 && spans[i].end > nextStart) {
      throw badRequest(`opening_hours: ${spans[i].label} overlaps ${next.label}`);
    }
  }
}

/** Optional text as stored: null for null, empty or blank. */
const clearable = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();

const TEXT_FIELDS = [
  'phone',
  'email',
  'booking_policy',
  'website',
  'description',
  'marketing_sender_name',
  'marketing_reply_to',
  'instagram_url',
  'tiktok_url',
  'twitter_url',
] as const;

const PLAIN_FIELDS = [
  'venue_type',
  'backdoor_capacity',
  'queue_skip_price',
  'surge_threshold',
  'surge_price',
  'last_entry_time',
  'max_plus_ones',
  'members_only',
  'default_booking_duration',
  'check_in_window_minutes',
  'default_party_min',
  'default_party_max',
  'booking_cutoff_value',
  'booking_cutoff_unit',
  'booking_start_value',
  'booking_start_unit',
] as const;

const FLAG_FIELDS = ['guest_list_enabled', 'tables_enabled', 'paid_guest_list_enabled'] as const;

/**
 * The columns a create or update writes, validated against the venue as it would be after the change
 * (`current` is undefined on create).
 */
function venueChanges(input: UpdateVenueBody, current: VenueRow | undefined): Updateable<VenuesTable> {
  const changes: Updateable<VenuesTable> = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.address !== undefined) changes.address = input.address.trim();
  for (const field of TEXT_FIELDS) {
    const value = clearable(input[field]);
    if (value !== undefined) changes[field] = value;
  }
  for (const field of PLAIN_FIELDS) {
    if (input[field] !== undefined) (changes as Record<string, unknown>)[field] = input[field];
  }
  for (const field of FLAG_FIELDS) {
    const flag = toFlag(input[field]);
    if (flag !== undefined) changes[field] = flag;
  }

  // food_types only exist for restaurants and cafes: setting them elsewhere is refused, and moving the
  // venue to another type clears them, so a stored value always matches the venue's type.
  const venueType = input.venue_type !== undefined ? input.venue_type : (current?.venue_type ?? null);
  const servesFood = venueType !== null && FOOD_VENUE_TYPES.includes(venueType);
  if (input.food_types !== undefined) {
    const clears = input.food_types === null || (typeof input.food_types === 'string' && input.food_types.trim() === '');
    if (clears) changes.food_types = null;
    else if (!servesFood) throw badRequest('food_types can only be set when venue_type is restaurant or cafe');
    else changes.food_types = JSON.stringify(input.food_types);
  } else if (input.venue_type !== undefined && !servesFood) {
    changes.food_types = null;
  }

  if (input.opening_hours !== undefined) {
    if (input.opening_hours !== null) checkOpeningHours(input.opening_hours);
    changes.opening_hours = input.opening_hours === null ? null : JSON.stringify(input.opening_hours);
  }

  if (input.timezone !== undefined) {
    if (!isValidTimezone(input.timezone)) throw badRequest(`timezone "${input.timezone}" is not a valid IANA time zone`);
    changes.timezone = input.timezone;
  }

  const partyMin = input.default_party_min ?? current?.default_party_min ?? 1;
  const partyMax = input.default_party_max ?? current?.default_party_max ?? 10;
  if (partyMin > partyMax) throw badRequest('default_party_min cannot exceed default_party_max');
  return changes;
}

/** Go-live requirements in the order they are reported; `logo` stands for the venue logo. */
export function missingForLive(venue: VenueRow): string[] {
  const blank = (value: string | null) => value === null || value.trim() === '';
  const missing: string[] = [];
  if (blank(venue.name)) missing.push('name');
  if (blank(venue.address)) missing.push('address');
  if (blank(venue.venue_type)) missing.push('venue_type');
  if (blank(venue.phone)) missing.push('phone');
  if (blank(venue.email)) missing.push('email');
  if (venue.backdoor_capacity === null) missing.push('backdoor_capacity');
  if (blank(venue.last_entry_time)) missing.push('last_entry_time');
  if (blank(venue.logo_url)) missing.push('logo');
  return missing;
}

export function createVenuesService(deps: {
  db: Db;
  clock: Clock;
  uploads: Pick<Uploads, 'saveImage'>;
  access: Pick<Guard, 'reachableVenue' | 'reachableVenueIds'>;
  /** The bookings module's facts about a venue's bookings (composition root). */
  bookings: VenueBookingFacts;
  audit: Audit;
}) {
  const { db, clock, uploads, access, bookings, audit } = deps;
  const now = () => clock.now().toISOString();

  async function load(venueId: string): Promise<VenueRow> {
    const row = await db.kysely.selectFrom('venues').selectAll().where('id', '=', venueId).executeTakeFirst();
    if (!row) throw notFound('Venue');
    return row;
  }

  /** Account-wide figures over `venueScope` (null: every venue), as the stats page and the dashboard define them. */
  const accountStats = (query: { operatorId: string; venueScope: string[] | null }) => operatorStats(db, bookings, query, clock.now());

  return {
    /** One venue the guard has already found reachable. */
    read: (venue: VenueRow): Venue => toVenue(venue),

    stats: (venue: VenueRow) => venueStats(db, bookings, venue, clock.now()),

    accountStats,

    /** Figures over the venues the caller reaches (`partner` is always null: there is no partner programme). */
    async operatorStats(auth: AuthInfo & { operatorId: string }) {
      return { ...(await accountStats({ operatorId: auth.operatorId, venueScope: auth.venueScope })), partner: null };
    },

    async list(auth: AuthInfo): Promise<Venue[]> {
      const ids = await access.reachableVenueIds(auth);
      if (ids.length === 0) return [];
      const rows = await db.kysely
        .selectFrom('venues')
        .selectAll()
        .where('operator_id', '=', auth.operatorId!)
        .where('id', 'in', ids)
        .orderBy('created_at')
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map(toVenue);
    },

    async create(auth: AuthInfo, input: CreateVenueBody) {
      // A role limited to some venues could not even see a venue it created; creating belongs to
      // roles that cover the whole account.
      if (auth.venueScope) throw forbidden('Your role is limited to specific venues and cannot create venues.');
      const changes = venueChanges(input, undefined);
      const id = newId('ven');
      const at = now();
      const values = {
        ...changes,
        id,
        operator_id: auth.operatorId!,
        name: input.name.trim(),
        address: input.address.trim(),
        created_at: at,
        updated_at: at,
      };
      await withTransaction(db, async (trx) => {
        await trx.insertInto('venues').values(values).execute();
        await audit.record(trx, { action: 'venue.created', entityType: 'venue', entityId: id, venueId: id, after: values });
      });
      const row = await load(id);
      return { success: true, id, status: row.status, app_listing_status: row.app_listing_status };
    },

    async update(venue: VenueRow, input: UpdateVenueBody): Promise<void> {
      const changes = venueChanges(input, venue);
      if (Object.keys(changes).length === 0) return;
      await withTransaction(db, async (trx) => {
        await trx
          .updateTable('venues')
          .set({ ...changes, updated_at: now() })
          .where('id', '=', venue.id)
          .execute();
        await audit.record(trx, {
          action: 'venue.updated',
          entityType: 'venue',
          entityId: venue.id,
          venueId: venue.id,
          before: venue,
          after: changes,
        });
      });
    },

    /** The venue's state and what a go-live would miss now (the guard has read the venue row). */
    readiness(venue: VenueRow) {
      const missing = missingForLive(venue);
      return { status: venue.status, ready: missing.length === 0, missing };
    },

    async setStatus(venue: VenueRow, status: 'draft' | 'live') {
      // Asking for the state the venue is already in changes nothing, so nothing is checked.
      if (venue.status === status) return { success: true, status };
      if (status === 'live') {
        const current = await load(venue.id);
        const missing = missingForLive(current);
        if (missing.length > 0) {
          throw badRequest(`The venue cannot go live until these are set: ${missing.join(', ')}`, { missing });
        }
        await withTransaction(db, async (trx) => {
          await trx.updateTable('venues').set({ status: 'live', updated_at: now() }).where('id', '=', venue.id).execute();
          await audit.record(trx, {
            action: 'venue.status_changed',
            entityType: 'venue',
            entityId: venue.id,
            venueId: venue.id,
            before: { status: venue.status },
            after: { status: 'live' },
          });
        });
        return { success: true, status: 'live' };
      }
      // Checked and written in one transaction under the venue's lock, so a booking taken under the
      // same lock cannot slip in between the check and the change.
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `venue:${venue.id}`);
        const today = localToday(clock.now(), venue.timezone);
        if (await bookings.hasUpcomingBookings(trx, venue.id, today))
          throw conflict('The venue has upcoming reservations and cannot go back to draft');
        await trx.updateTable('venues').set({ status: 'draft', updated_at: now() }).where('id', '=', venue.id).execute();
        await audit.record(trx, {
          action: 'venue.status_changed',
          entityType: 'venue',
          entityId: venue.id,
          venueId: venue.id,
          before: { status: venue.status },
          after: { status: 'draft' },
        });
      });
      return { success: true, status: 'draft' };
    },

    async requestListing(venue: VenueRow) {
      const result = await db.kysely
        .updateTable('venues')
        .set({ app_listing_status: 'pending', updated_at: now() })
        .where('id', '=', venue.id)
        .where('status', '=', 'live')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw conflict('Only a live venue can request an app listing');
      return { success: true, app_listing_status: 'pending' };
    },

    async withdrawListing(venue: VenueRow) {
      const result = await db.kysely
        .updateTable('venues')
        .set({ app_listing_status: 'none', updated_at: now() })
        .where('id', '=', venue.id)
        .where('app_listing_status', '=', 'pending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw conflict('Only a pending listing request can be withdrawn');
      return { success: true, app_listing_status: 'none' };
    },

    async sisters(auth: AuthInfo, venue: VenueRow) {
      const rows = await db.kysely
        .selectFrom('venue_sisters')
        .innerJoin('venues', 'venues.id', 'venue_sisters.sister_venue_id')
        .select([
          'venues.id',
          'venues.name',
          'venues.address',
          'venues.status',
          'venues.venue_type',
          'venues.logo_url',
          'venue_sisters.created_at as linked_at',
        ])
        .where('venue_sisters.venue_id', '=', venue.id)
        .where('venues.operator_id', '=', venue.operator_id)
        .orderBy('venues.name')
        .orderBy('venues.id')
        .execute();
      // A venue-scoped role sees only the sisters inside its scope, as everywhere else.
      return auth.venueScope ? rows.filter((row) => auth.venueScope!.includes(row.id)) : rows;
    },

    async addSister(auth: AuthInfo, venue: VenueRow, sisterId: string): Promise<void> {
      if (sisterId === venue.id) throw badRequest('A venue cannot be its own sister');
      await access.reachableVenue(auth, sisterId);
      const at = now();
      await withTransaction(db, async (trx) => {
        for (const [a, b] of [
          [venue.id, sisterId],
          [sisterId, venue.id],
        ]) {
          await trx
            .insertInto('venue_sisters')
            .values({ venue_id: a, sister_venue_id: b, created_at: at })
            .onConflict((oc) => oc.columns(['venue_id', 'sister_venue_id']).doNothing())
            .execute();
        }
      });
    },

    async removeSister(auth: AuthInfo, venue: VenueRow, sisterId: string): Promise<void> {
      await access.reachableVenue(auth, sisterId);
      const result = await db.kysely
        .deleteFrom('venue_sisters')
        .where((eb) =>
          eb.or([
            eb.and([eb('venue_id', '=', venue.id), eb('sister_venue_id', '=', sisterId)]),
            eb.and([eb('venue_id', '=', sisterId), eb('sister_venue_id', '=', venue.id)]),
          ]),
        )
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('Sister link');
    },

    async uploadLogo(venue: VenueRow, data: string) {
      const image = await uploads.saveImage(data, UPLOAD_LIMITS.venueLogo);
      await db.kysely.updateTable('venues').set({ logo_url: image.url, updated_at: now() }).where('id', '=', venue.id).execute();
      return { success: true, logo_url: image.url };
    },
  };
}

export type VenuesService = ReturnType<typeof createVenuesService>;

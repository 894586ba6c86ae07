/**
 * The guest CRM over the caller's roster (CONTRACT §4): the roster (offset and cursor paging), search,
 * guest detail with stats, score, tags and connections, the guest's bookings, keys ledger and activity,
 * the network, tag replacement and walk-ins. A guest outside the caller's roster (or related only to
 * venues outside the role's scope) is not found, whatever the route.
 */
import type { Audit } from '../../platform/audit.js';
import type { Db } from '../../db/connect.js';
import type { Conn } from '../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { cursorPage, offsetPage, pageRequest } from '../../platform/paging.js';
import { createWalkIn, replaceTags, tagsOf } from './guest-records.js';
import { guestRows, toGuest } from './guest-views.js';
import { ROSTER_SEARCH_MAX, SEARCH_MIN, VENUE_SEARCH_MAX, type RosterQuery, type TagsBody, type WalkInBody } from './guests.schemas.js';
import { connectionsOf, egoGraph, wholeGraph } from './network.js';
import { createPrivacy } from './privacy.js';
import { activityItems } from './activity.js';
import { admissionFactsOf, rosterProfiles, type ConnectionCounter } from './roster.js';
import { inRoster, rosterPage, rosterVenues, rosterTotal, searchRoster, type GuestScope, type RosterFilter } from './roster.repository.js';
import { EMPTY_FIGURES, guestScore, loyaltyPoints } from './score.js';
import { queryTerms } from './search-terms.js';
import type { CrmBooking, GuestSources } from './sources.js';

export interface GuestsDeps {
  db: Db;
  clock: Clock;
  sources: GuestSources;
  reachableVenue(auth: AuthInfo, venueId: string): Promise<VenueRow>;
  audit: Audit;
}

/** Bookings shown in the guest detail (all of them: /bookings). */
const DETAIL_BOOKINGS = 20;

export function createGuestsService(deps: GuestsDeps) {
  const { db, clock, sources } = deps;
  // Admission rules count connections operator-wide.
  const countConnections: ConnectionCounter = async (conn, operatorId, userId) =>
    (await connectionsOf(conn, sources, { operatorId, venueIds: null }, userId, clock.now())).length;

  async function scopeOf(auth: AuthInfo): Promise<GuestScope> {
    if (!auth.operatorId) throw notFound('Guest');
    return { operatorId: auth.operatorId, venueIds: auth.venueScope ? await sources.reachableVenueIds(auth) : null };
  }

  /** The caller's scope, once the guest is known to be in it (404 otherwise). */
  async function visibleGuest(auth: AuthInfo, userId: string): Promise<GuestScope> {
    const scope = await scopeOf(auth);
    if (!(await inRoster(db, scope, userId))) throw notFound('Guest');
    return scope;
  }

  async function venueNameMap(operatorId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await sources.venueNames(operatorId, [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async function bookingItems(scope: GuestScope, rows: CrmBooking[], guestName: string) {
    const names = await venueNameMap(
      scope.operatorId,
      rows.map((r) => r.venue_id),
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      guest_count: row.guest_count,
      booking_date: row.booking_date,
      venue_name: names.get(row.venue_id) ?? '',
      user_name: row.guest_name ?? guestName,
      venue_id: row.venue_id,
      start_time: row.start_time,
      kind: row.kind,
      total_pence: row.total_pence,
    }));
  }

  async function profileOf(operatorId: string, userId: string) {
    const [profile] = await rosterProfiles(db, operatorId, [userId]);
    if (!profile) throw notFound('Guest');
    return profile;
  }

  /** The keys ledger entries of the guest's bookings at the scope's venues. */
  async function billingOf(scope: GuestScope, userId: string, bookings?: CrmBooking[]) {
    const rows = bookings ?? (await sources.bookings(db, scope.operatorId, scope.venueIds, userId));
    return sources.billing(
      db,
      userId,
      rows.map((r) => r.id),
    );
  }

  async function detailParts(scope: GuestScope, userId: string) {
    const profile = await profileOf(scope.operatorId, userId);
    const [bookings, figures, tags, connections] = await Promise.all([
      sources.bookings(db, scope.operatorId, scope.venueIds, userId),
      sources.figures(db, scope.operatorId, scope.venueIds, [userId]),
      tagsOf(db, scope.operatorId, userId, scope.venueIds),
      connectionsOf(db, sources, scope, userId, clock.now()),
    ]);
    const billing = await billingOf(scope, userId, bookings);
    const figure = figures.get(userId) ?? EMPTY_FIGURES;
    const venueNames = await venueNameMap(scope.operatorId, [...bookings.map((b) => b.venue_id), ...tags.perVenue.keys()]);
    const stats = {
      loyalty_points: loyaltyPoints(figure),
      confirmed_visits: figure.visits,
      door_rejections: figure.door_rejections,
      total_bookings: figure.total_bookings,
      keys_spent: Math.max(0, -billing.reduce((sum, entry) => sum + entry.delta, 0)),
      no_shows: figure.no_shows,
      cancellations: figure.cancellations,
      spend_pence: figure.spend_pence,
      last_visit_date: figure.last_visit_date,
    };
    const tagView = {
      global: tags.global,
      per_venue: [...tags.perVenue.entries()]
        .map(([venueId, list]) => ({ venue_id: venueId, venue_name: venueNames.get(venueId) ?? '', tags: list }))
        .sort((a, b) => (a.venue_name === b.venue_name ? (a.venue_id < b.venue_id ? -1 : 1) : a.venue_name < b.venue_name ? -1 : 1)),
    };
    return { profile, bookings, figure, stats, tagView, connections, billing };
  }

  const privacy = createPrivacy({ db, clock, sources, visibleGuest, detailParts, bookingActivity: activityOf, audit: deps.audit });

  async function activityOf(scope: GuestScope, userId: string, limit: number) {
    const profile = await profileOf(scope.operatorId, userId);
    return activityItems(db, sources, scope, profile.email, userId, limit, (ids) => venueNameMap(scope.operatorId, ids));
  }

  return {
    /**
     * What admission-rule conditions need about a guest at an operator (tags, connections), read on
     * `conn` (the caller's transaction): the guest-list and ticket purchases evaluate rules with it.
     */
    admissionFacts: (conn: Conn, operatorId: string, venueId: string, userId: string) =>
      admissionFactsOf(conn, countConnections, { operatorId, venueId, userId }),
    async list(auth: AuthInfo, query: RosterQuery) {
      const scope = await scopeOf(auth);
      const page = pageRequest(query, 2);
      const filter = rosterFilter(query);
      if (page.mode === 'offset') {
        const [ids, total] = await Promise.all([
          rosterPage(db, scope, { limit: page.limit, offset: page.offset }, filter),
          rosterTotal(db, scope, filter),
        ]);
        return offsetPage(
          await guestRows(
            db,
            sources,
            scope,
            ids.map((r) => r.user_id),
          ),
          total,
          page,
        );
      }
      const after = page.after ? { lastSeenAt: String(page.after[0]), userId: String(page.after[1]) } : null;
      const ids = await rosterPage(db, scope, { limit: page.limit + 1, after }, filter);
      const paged = cursorPage(ids, page.limit, (row) => [row.last_seen_at, row.user_id]);
      return {
        ...paged,
        data: await guestRows(
          db,
          sources,
          scope,
          paged.data.map((r) => r.user_id),
        ),
      };
    },

    async search(auth: AuthInfo, q: string) {
      const terms = searchTerms(q);
      const scope = await scopeOf(auth);
      return { data: await guestRows(db, sources, scope, await searchRoster(db, scope, terms, ROSTER_SEARCH_MAX)) };
    },

    async venueSearch(auth: AuthInfo, venue: VenueRow, q: string) {
      const terms = searchTerms(q);
      const scope = await scopeOf(auth);
      const ids = await searchRoster(db, scope, terms, VENUE_SEARCH_MAX, venue.id);
      const profiles = new Map((await rosterProfiles(db, scope.operatorId, ids)).map((p) => [p.id, p]));
      return {
        data: ids.flatMap((id) => {
          const p = profiles.get(id);
          return p ? [{ id: p.id, name: p.name, email: p.email, phone: p.phone, profile_image_url: p.profile_image_url }] : [];
        }),
      };
    },

    async detail(auth: AuthInfo, userId: string) {
      const scope = await visibleGuest(auth, userId);
      const parts = await detailParts(scope, userId);
      const [venues, membership] = await Promise.all([rosterVenues(db, scope, [userId]), sources.membership(db, scope.operatorId, userId)]);
      const guest = toGuest(parts.profile, parts.figure, venues.get(userId) ?? []);
      return {
        guest: membership?.active ? { ...guest, membership_tier: membership.tier_name } : guest,
        bookings: await bookingItems(scope, parts.bookings.slice(0, DETAIL_BOOKINGS), parts.profile.name),
        stats: parts.stats,
        is_connection: parts.connections.length > 0,
        connections: parts.connections.length,
        tags: parts.tagView,
        score: guestScore(parts.figure, clock.now()),
        membership,
      };
    },

    async bookings(auth: AuthInfo, userId: string) {
      const scope = await visibleGuest(auth, userId);
      const profile = await profileOf(scope.operatorId, userId);
      return { data: await bookingItems(scope, await sources.bookings(db, scope.operatorId, scope.venueIds, userId), profile.name) };
    },

    async billing(auth: AuthInfo, userId: string) {
      const scope = await visibleGuest(auth, userId);
      return { data: await billingOf(scope, userId) };
    },

    async activity(auth: AuthInfo, userId: string) {
      const scope = await visibleGuest(auth, userId);
      return { data: await activityOf(scope, userId, 10) };
    },

    async network(auth: AuthInfo, userId: string) {
      const scope = await visibleGuest(auth, userId);
      return egoGraph(db, sources, scope, userId, clock.now());
    },

    async wholeNetwork(auth: AuthInfo) {
      return wholeGraph(db, sources, await scopeOf(auth), clock.now());
    },

    async putTags(auth: AuthInfo, userId: string, body: TagsBody) {
      const scope = await visibleGuest(auth, userId);
      await replaceTags(deps, auth, scope.operatorId, userId, body);
    },

    walkIn: (auth: AuthInfo, venue: VenueRow, body: WalkInBody) => createWalkIn(deps, auth, venue, body),
    exportGuest: privacy.exportGuest,
    erase: privacy.erase,
    eraseEverywhere: privacy.eraseEverywhere,
    erasures: privacy.erasures,
    reapplyErasures: privacy.reapplyErasures,
  };
}

/** The roster list's filters: the tag as tags are stored (trimmed, spaces collapsed), instants in the stored ISO form. */
function rosterFilter(query: RosterQuery): RosterFilter {
  const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());
  const tag = query.tag?.trim().replace(/\s+/g, ' ');
  if (query.tag !== undefined && !tag) throw badRequest('tag must not be blank');
  return { tag, seenSince: instant(query.seen_since), seenBefore: instant(query.seen_before) };
}

/** The normalised query terms; 400 when fewer than SEARCH_MIN characters remain. */
function searchTerms(q: string): string[] {
  if (q.trim().length < SEARCH_MIN) throw badRequest(`q must be at least ${SEARCH_MIN} characters`);
  return queryTerms(q).filter((term) => term.length > 0);
}

export type GuestsService = ReturnType<typeof createGuestsService>;

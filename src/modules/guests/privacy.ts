/**
 * Privacy requests (docs/guests.md, Erasure): the export of everything the operator holds on a guest,
 * and the erasure of a guest from the operator's roster. Erasure anonymises the guest's personal fields
 * on the operator's records (bookings' name, email, phone and notes, the guest's name in booking history,
 * vouchers' recipient and purchaser details) and cuts the bookings' link to the guest's account; deletes
 * the operator's tags, search terms, CRM activity and roster membership; keeps bookings, vouchers and all
 * money records. The guest's platform account stays, unless it is a walk-in record this operator created
 * and no other operator's roster holds it.
 *
 * Both are account-wide acts: only the Owner or a role whose scope is every venue may do them (decisions:
 * Security round 2). A role limited to some venues could otherwise bring any guest into its scope with a
 * booking at one of its venues and then erase (or read) the guest's records at every venue.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { Audit } from '../../platform/audit.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { deleteWalkInGuest, guestProfiles } from '../auth/index.js';
import type { ActivityItem } from './activity.js';
import type { GuestProfile } from './guest-views.js';
import { membership, rosterVenues, type GuestScope } from './roster.repository.js';
import { guestScore } from './score.js';
import type { CrmBillingEntry, CrmBooking, CrmFigures, GuestSources } from './sources.js';

interface DetailParts {
  profile: GuestProfile;
  bookings: CrmBooking[];
  figure: CrmFigures;
  stats: Record<string, number | string | null>;
  tagView: { global: string[]; per_venue: { venue_id: string; venue_name: string; tags: string[] }[] };
  billing: CrmBillingEntry[];
}

export const ACCOUNT_WIDE_ONLY = 'Guest export and erasure cover the whole account: they need a role with access to every venue';

/** 403 unless the caller's role covers every venue of the account (the Owner's always does). */
function assertAccountWide(auth: AuthInfo): void {
  if (!auth.isOwner && auth.venueScope !== null) throw forbidden(ACCOUNT_WIDE_ONLY);
}

/** Far more than any guest's activity: the export carries all of it. */
const EXPORT_ACTIVITY = 10_000;

export function createPrivacy(deps: {
  db: Db;
  clock: Clock;
  sources: GuestSources;
  visibleGuest(auth: AuthInfo, userId: string): Promise<GuestScope>;
  detailParts(scope: GuestScope, userId: string): Promise<DetailParts>;
  bookingActivity(scope: GuestScope, userId: string, limit: number): Promise<ActivityItem[]>;
  audit: Audit;
}) {
  const { db, clock, sources } = deps;

  /** The erasure itself, in the caller's transaction, with its ledger entry. */
  async function eraseGuest(trx: Kysely<Database>, operatorId: string, guest: { id: string; email: string | null }, now: Date) {
    const userId = guest.id;
    await lockKey(db, trx, `guest-tags:${operatorId}:${userId}`);
    const bookings = await sources.anonymiseBookings(trx, operatorId, userId, now);
    const vouchers = guest.email ? await sources.anonymiseVouchers(trx, operatorId, guest.email, now) : 0;
    for (const table of ['guest_tags', 'guest_search_terms', 'guest_activity', 'guest_roster_venues', 'guest_roster'] as const) {
      await trx.deleteFrom(table).where('operator_id', '=', operatorId).where('user_id', '=', userId).execute();
    }
    const walkIn = await trx
      .deleteFrom('guest_walk_ins')
      .where('user_id', '=', userId)
      .where('operator_id', '=', operatorId)
      .executeTakeFirst();
    let accountDeleted = false;
    if (Number(walkIn.numDeletedRows) > 0) {
      const elsewhere = await trx.selectFrom('guest_roster').select('operator_id').where('user_id', '=', userId).executeTakeFirst();
      accountDeleted = !elsewhere && (await deleteWalkInGuest(trx, userId));
    }
    await trx
      .insertInto('guest_erasures')
      .values({ operator_id: operatorId, user_id: userId, erased_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['operator_id', 'user_id']).doUpdateSet({ erased_at: now.toISOString() }))
      .execute();
    return { success: true, bookings_anonymised: bookings, vouchers_anonymised: vouchers, account_deleted: accountDeleted };
  }

  return {
    /** Everything the operator holds on the guest, as JSON. */
    async exportGuest(auth: AuthInfo, userId: string) {
      assertAccountWide(auth);
      const scope = await deps.visibleGuest(auth, userId);
      const parts = await deps.detailParts(scope, userId);
      const [member, venues, vouchers, activity, walkIn] = await Promise.all([
        membership(db, scope.operatorId, userId),
        rosterVenues(db, scope, [userId]),
        sources.vouchers(db, scope.operatorId, scope.venueIds, parts.profile.email),
        deps.bookingActivity(scope, userId, EXPORT_ACTIVITY),
        db.kysely
          .selectFrom('guest_walk_ins')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('operator_id', '=', scope.operatorId)
          .executeTakeFirst(),
      ]);
      const names = new Map(
        (await sources.venueNames(scope.operatorId, [...new Set(parts.bookings.map((b) => b.venue_id))])).map((v) => [v.id, v.name]),
      );
      const { profile } = parts;
      // The export itself is what is recorded (who took the guest's data out, and when), never its contents.
      await deps.audit.record(db, { action: 'guest.exported', entityType: 'guest', entityId: userId, always: true });
      return {
        exported_at: clock.now().toISOString(),
        operator_id: scope.operatorId,
        guest: {
          id: profile.id,
          name: profile.name,
          email: profile.email,
          phone: profile.phone,
          membership_tier: profile.membership_tier,
          profile_image_url: profile.profile_image_url,
          walk_in: Boolean(walkIn),
        },
        roster: {
          first_seen_at: member?.first_seen_at ?? '',
          last_seen_at: member?.last_seen_at ?? '',
          venue_ids: venues.get(userId) ?? [],
        },
        tags: parts.tagView,
        stats: parts.stats,
        score: guestScore(parts.figure, clock.now()),
        bookings: parts.bookings.map((b) => ({ ...b, venue_name: names.get(b.venue_id) ?? '' })),
        vouchers,
        billing: parts.billing,
        activity,
      };
    },

    /** Erases the guest from the caller's operator (all its venues: erasure is operator-wide). */
    async erase(auth: AuthInfo, userId: string) {
      assertAccountWide(auth);
      const scope = await deps.visibleGuest(auth, userId);
      const [profile] = await guestProfiles(db, [userId]);
      if (!profile) throw notFound('Guest');
      const now = clock.now();
      return withTransaction(db, async (trx) => {
        const erased = await eraseGuest(trx, scope.operatorId, { id: userId, email: profile.email }, now);
        // The guest's id and what was anonymised, no personal data.
        const { success: _success, ...counts } = erased;
        await deps.audit.record(trx, { action: 'guest.erased', entityType: 'guest', entityId: userId, after: counts, always: true });
        return erased;
      });
    },

    /**
     * A guest's erasure of their own account (the account module, docs/account.md): the same erasure as an
     * operator's, at every operator whose roster holds the guest and at `operatorIds` (where the caller
     * found the guest's bookings or vouchers), in the caller's transaction. Answers those operators.
     */
    async eraseEverywhere(trx: Kysely<Database>, guest: { id: string; email: string }, operatorIds: readonly string[], now: Date) {
      const rostered = await trx.selectFrom('guest_roster').select('operator_id').where('user_id', '=', guest.id).execute();
      const operators = [...new Set([...rostered.map((r) => r.operator_id), ...operatorIds])].sort();
      for (const operatorId of operators) await eraseGuest(trx, operatorId, guest, now);
      return operators;
    },

    /** The erasure ledger: who was erased from which operator, and when (restore re-applies it). */
    erasures: () => db.kysely.selectFrom('guest_erasures').selectAll().orderBy('erased_at').execute(),

    /**
     * Erases again what the ledger lists and this database does not (a backup from before the erasure was
     * restored): answers how many were erased again. A guest whose account no longer exists has nothing left to erase.
     */
    async reapplyErasures(ledger: readonly { operator_id: string; user_id: string; erased_at: string }[]): Promise<number> {
      let erased = 0;
      for (const entry of ledger) {
        const known = await db.kysely
          .selectFrom('guest_erasures')
          .select('erased_at')
          .where('operator_id', '=', entry.operator_id)
          .where('user_id', '=', entry.user_id)
          .executeTakeFirst();
        if (known && known.erased_at >= entry.erased_at) continue;
        const [profile] = await guestProfiles(db, [entry.user_id]);
        await withTransaction(db, (trx) =>
          eraseGuest(trx, entry.operator_id, { id: entry.user_id, email: profile?.email ?? null }, new Date(entry.erased_at)),
        );
        erased += 1;
      }
      return erased;
    },
  };
}

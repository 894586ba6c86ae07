/**
 * Memberships (docs/memberships.md): the tiers an operator account sells (CRUD under
 * /api/my-operator/membership-tiers, permission `catalogue`), what a live venue's guests see of them,
 * a signed-in guest's purchase or renewal through the provider's hosted checkout (the `membership`
 * fulfilment of the payments module calls `fulfil` when the session is paid), the guest's own list,
 * and the reads other modules are handed by the composition root: the perk tags admission rules see,
 * the member discount on tickets, and the membership the guest CRM shows.
 */
import { isActiveUntil, type MembershipPeriod } from '../../domain/membership-period.js';
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import { requiredText } from '../../platform/text.js';
import type { Payments } from '../payments/index.js';
import type { GuestMembership, PurchaseBody, TierBody, TierPatch } from './memberships.schemas.js';
import {
  memberCounts,
  membershipOf,
  membershipsOfGuest,
  runningMembership,
  tierById,
  tierInUse,
  tierOf,
  tiersOf,
  tiersOnSale,
  type TierRow,
} from './memberships.repository.js';

export interface MembershipsDeps {
  db: Db;
  clock: Clock;
  payments: Pick<Payments, 'createCheckoutSession'>;
  publicBaseUrl: string;
  /** A live venue by id (the venues module's). */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /** The operator account's name (the team module's). */
  operatorName(conn: Conn, operatorId: string): Promise<string | undefined>;
}

export const parseTags = (text: string): string[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

/** Perk tags trimmed, blanks dropped, duplicates (case-insensitively, as admission rules match) removed. */
function normalisePerks(perks: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of perks) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/** 400 unless a `days` period has its day count (and other periods none). */
function periodOf(period: MembershipPeriod, days: number | null | undefined): { period: MembershipPeriod; period_days: number | null } {
  if (period === 'days') {
    if (days === undefined || days === null) throw badRequest('period_days is required when period is days');
    return { period, period_days: days };
  }
  return { period, period_days: null };
}

const publicTier = (
  row: Pick<TierRow, 'name' | 'description' | 'price_pence' | 'period' | 'period_days' | 'perk_tags' | 'ticket_discount_pct'> & {
    id: string;
  },
) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  price_pence: row.price_pence,
  period: row.period,
  period_days: row.period_days,
  perks: parseTags(row.perk_tags),
  ticket_discount_pct: row.ticket_discount_pct,
});

const onSale = (tier: TierRow) => tier.active === 1 && tier.archived_at === null;

export function createMembershipsService(deps: MembershipsDeps) {
  const { db, clock } = deps;

  const toTier = (row: TierRow, counts: Map<string, number>) => ({
    ...publicTier(row),
    active: row.active === 1,
    archived: row.archived_at !== null,
    archived_at: row.archived_at,
    member_count: counts.get(row.id) ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });

  async function ownTier(operatorId: string, id: string): Promise<TierRow> {
    const tier = await tierOf(db, operatorId, id);
    if (!tier) throw notFound('Membership tier');
    return tier;
  }

  return {
    async list(operatorId: string) {
      const [rows, counts] = await Promise.all([tiersOf(db, operatorId), memberCounts(db, operatorId, clock.now())]);
      return rows.map((row) => toTier(row, counts));
    },

    async get(operatorId: string, id: string) {
      const tier = await ownTier(operatorId, id);
      return toTier(tier, await memberCounts(db, operatorId, clock.now()));
    },

    async create(operatorId: string, body: TierBody): Promise<string> {
      const id = newId('mtr');
      const at = clock.now().toISOString();
      await db.kysely
        .insertInto('membership_tiers')
        .values({
          id,
          operator_id: operatorId,
          name: requiredText(body.name),
          description: body.description?.trim() ?? '',
          price_pence: body.price_pence,
          ...periodOf(body.period, body.period_days),
          perk_tags: JSON.stringify(normalisePerks(body.perks ?? [])),
          ticket_discount_pct: body.ticket_discount_pct ?? 0,
          active: toFlag(body.active) ?? 1,
          archived_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return id;
    },

    async update(operatorId: string, id: string, body: TierPatch): Promise<void> {
      const tier = await ownTier(operatorId, id);
      if (tier.archived_at !== null) throw conflict('This tier is archived: it is kept for its members and cannot be changed');
      const period = periodOf(
        body.period ?? (tier.period as MembershipPeriod),
        body.period_days !== undefined ? body.period_days : body.period && body.period !== 'days' ? null : tier.period_days,
      );
      await db.kysely
        .updateTable('membership_tiers')
        .set({
          ...(body.name !== undefined ? { name: requiredText(body.name) } : {}),
          ...(body.description !== undefined ? { description: body.description.trim() } : {}),
          ...(body.price_pence !== undefined ? { price_pence: body.price_pence } : {}),
          ...period,
          ...(body.perks !== undefined ? { perk_tags: JSON.stringify(normalisePerks(body.perks)) } : {}),
          ...(body.ticket_discount_pct !== undefined ? { ticket_discount_pct: body.ticket_discount_pct } : {}),
          ...(body.active !== undefined ? { active: toFlag(body.active)! } : {}),
          updated_at: clock.now().toISOString(),
        })
        .where('id', '=', tier.id)
        .where('operator_id', '=', operatorId)
        .execute();
    },

    /** Deletes a tier nobody ever bought; one with members or purchases is archived instead (`archived: true`). */
    async remove(operatorId: string, id: string): Promise<{ archived: boolean }> {
      return withTransaction(db, async (trx) => {
        await lockKey(db, trx, `membership-tier:${id}`);
        const tier = await tierOf(trx, operatorId, id);
        if (!tier) throw notFound('Membership tier');
        if (await tierInUse(trx, tier.id)) {
          const at = clock.now().toISOString();
          await trx
            .updateTable('membership_tiers')
            .set({ active: 0, archived_at: tier.archived_at ?? at, updated_at: at })
            .where('id', '=', tier.id)
            .execute();
          return { archived: true };
        }
        await trx.deleteFrom('membership_tiers').where('id', '=', tier.id).execute();
        return { archived: false };
      });
    },

    /** The tiers a live venue's operator has on sale (404 for a venue that is not live). */
    async publicTiers(venueId: string) {
      const venue = await deps.liveVenue(db, venueId);
      if (!venue) throw notFound('Venue');
      return { venue: { id: venue.id, name: venue.name }, data: (await tiersOnSale(db, venue.operator_id)).map(publicTier) };
    },

    /**
     * A signed-in guest buys (or renews) a tier: a purchase row and the provider's checkout session for
     * the tier's price. 404 for a tier not on sale (or a venue not live or not the tier's operator's); 409
     * while another tier of the operator runs for the guest.
     */
    async purchase(user: { id: string; email: string }, body: PurchaseBody) {
      const tier = await tierById(db, body.tier_id);
      if (!tier || !onSale(tier)) throw notFound('Membership tier');
      let venue: VenueRow | undefined;
      if (body.venue_id !== undefined) {
        venue = await deps.liveVenue(db, body.venue_id);
        if (!venue || venue.operator_id !== tier.operator_id) throw notFound('Venue');
      }
      const now = clock.now();
      const current = await membershipOf(db, tier.operator_id, user.id);
      const running = current !== undefined && isActiveUntil(current.expires_at, now);
      if (running && current.tier_id !== tier.id) {
        const held = await tierById(db, current.tier_id);
        throw conflict(
          `Your ${held?.name ?? 'current'} membership runs until ${current.expires_at}: another tier can be bought once it ends`,
        );
      }
      const at = now.toISOString();
      const purchaseId = newId('mpu');
      await db.kysely
        .insertInto('membership_purchases')
        .values({
          id: purchaseId,
          operator_id: tier.operator_id,
          user_id: user.id,
          tier_id: tier.id,
          venue_id: venue?.id ?? null,
          amount_pence: tier.price_pence,
          period: tier.period,
          period_days: tier.period_days,
          checkout_session_id: null,
          status: 'pending',
          fulfilled_at: null,
          expires_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      // The outcome goes in the query, before any `#screen` of the return path (an app's screen survives the trip).
      const returnPath = body.return_path ?? '/account';
      const hashAt = returnPath.indexOf('#');
      const back = `${deps.publicBaseUrl}${hashAt < 0 ? returnPath : returnPath.slice(0, hashAt)}`;
      const hash = hashAt < 0 ? '' : returnPath.slice(hashAt);
      const join = back.includes('?') ? '&' : '?';
      const session = await deps.payments.createCheckoutSession({
        operatorId: tier.operator_id,
        venueId: venue?.id ?? null,
        amountPence: tier.price_pence,
        name: `${tier.name} membership`,
        // `user_id` and `tier` as the contract's `membership` kind names them; the purchase is what is fulfilled.
        metadata: { kind: 'membership', user_id: user.id, tier: tier.name.slice(0, 50), tier_id: tier.id, purchase_id: purchaseId },
        successUrl: `${back}${join}membership=paid&purchase=${purchaseId}${hash}`,
        cancelUrl: `${back}${join}membership=cancelled&purchase=${purchaseId}${hash}`,
        customerEmail: user.email,
        idempotencyKey: `membership-purchase-${purchaseId}`,
      });
      await db.kysely
        .updateTable('membership_purchases')
        .set({ checkout_session_id: session.id })
        .where('id', '=', purchaseId)
        .where('checkout_session_id', 'is', null)
        .execute();
      return {
        purchase_id: purchaseId,
        checkout_session_id: session.id,
        checkout_url: session.url ?? '',
        amount_pence: tier.price_pence,
        renewal: running,
      };
    },

    /** The guest's memberships of every operator, latest expiry first. */
    async mine(userId: string): Promise<GuestMembership[]> {
      const rows = await membershipsOfGuest(db, userId);
      const now = clock.now();
      const names = new Map<string, string>();
      for (const id of new Set(rows.map((r) => r.operator_id))) names.set(id, (await deps.operatorName(db, id)) ?? '');
      return rows.map((row) => ({
        id: row.id,
        operator_id: row.operator_id,
        operator_name: names.get(row.operator_id) ?? '',
        tier: publicTier({ ...row, id: row.tier_id }),
        started_at: row.started_at,
        expires_at: row.expires_at,
        active: isActiveUntil(row.expires_at, now),
      }));
    },

    /** The perk tags of the guest's running membership of the operator (none without one), read on `conn`. */
    async perkTags(conn: Conn, operatorId: string, userId: string): Promise<string[]> {
      const running = await runningMembership(conn, operatorId, userId, clock.now());
      return running ? parseTags(running.perk_tags) : [];
    },

    /** The member discount (percent) of the guest's running membership of the operator; 0 without one. */
    async ticketDiscountPct(conn: Conn, operatorId: string, userId: string): Promise<number> {
      const running = await runningMembership(conn, operatorId, userId, clock.now());
      return running ? running.ticket_discount_pct : 0;
    },

    /** The guest's membership of the operator as the CRM shows it (running or lapsed), or null. */
    async crmMembership(conn: Conn, operatorId: string, userId: string) {
      const row = await membershipOf(conn, operatorId, userId);
      if (!row) return null;
      const tier = await tierById(conn, row.tier_id);
      return {
        tier_id: row.tier_id,
        tier_name: tier?.name ?? '',
        started_at: row.started_at,
        expires_at: row.expires_at,
        active: isActiveUntil(row.expires_at, clock.now()),
      };
    },
  };
}

export type MembershipsService = ReturnType<typeof createMembershipsService>;

/**
 * The guest's own account (docs/account.md): their bookings, tickets and vouchers across every venue and
 * operator, their keys with the ledger and top-up, their data export and erasure, and their contact
 * preferences. Every read starts from the signed-in guest: records linked to the user, or made with the
 * user's own address (proven by the sign-in), never an address a caller types.
 *
 * It owns only the preferences and the sign-in codes; bookings, tickets, vouchers, venues, keys and the
 * CRM are read (and, for erasure, anonymised) through their modules' indexes and the functions the
 * composition root hands in.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { localToday } from '../../domain/venue-time.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { qrDataUrl } from '../../platform/qr-image.js';
import { eraseGuestAccount, guestProfiles, normaliseEmail } from '../auth/index.js';
import { accountBookings, PENCE_PER_KEY, type AccountBooking } from '../bookings/index.js';
import { accountTickets } from '../events/index.js';
import { keysLedger, type Payments } from '../payments/index.js';
import { guestVenueCards } from '../venues/index.js';
import { guestVouchers } from '../vouchers/index.js';

/** Statuses whose booking has no door QR (the QR endpoint answers 404 for them). */
const NO_QR = ['cancelled', 'rejected', 'expired', 'door_rejected', 'no_show'];
/** The most keys one top-up buys. */
export const MAX_TOPUP_KEYS = 500;
const LEDGER_PAGE = 200;
const EXPORT_LEDGER = 100_000;

const DEFAULT_PREFERENCES = { marketing_email: false, marketing_sms: false, reminders_email: true, reminders_sms: false };
export type Preferences = typeof DEFAULT_PREFERENCES;

export interface AccountDeps {
  db: Db;
  clock: Clock;
  publicBaseUrl: string;
  payments: Pick<Payments, 'keysBalance' | 'createCheckoutSession'>;
  /** The manage link's token of a booking (bookings' manage flow): the app reads and cancels with it. */
  manageToken(booking: AccountBooking): Promise<string>;
  /** The guests module's erasure at every operator holding the guest, in the caller's transaction. */
  eraseEverywhere(
    trx: Kysely<Database>,
    guest: { id: string; email: string },
    operatorIds: readonly string[],
    now: Date,
  ): Promise<string[]>;
}

export interface AccountUser {
  id: string;
  email: string;
}

export function createAccountService(deps: AccountDeps) {
  const { db, clock } = deps;

  async function profileOf(user: AccountUser) {
    const [profile] = await guestProfiles(db, [user.id]);
    if (!profile) throw notFound('Account');
    return profile;
  }

  async function venuesOf(venueIds: readonly string[]) {
    return new Map((await guestVenueCards(db, venueIds)).map((v) => [v.id, v]));
  }

  const venueView = (venue: { id: string; name: string; address: string; timezone: string } | undefined, venueId: string) => ({
    id: venueId,
    name: venue?.name ?? '',
    address: venue?.address ?? '',
    timezone: venue?.timezone ?? 'Europe/London',
  });

  /** Upcoming: on or after today where the venue is. */
  const isUpcoming = (booking: AccountBooking, timezone: string) => booking.booking_date >= localToday(clock.now(), timezone);

  async function bookingViews(user: AccountUser, kind: 'bookings' | 'tickets') {
    const all = await accountBookings(db, user.id, user.email);
    const rows = all.filter((b) => (kind === 'tickets' ? b.event_id !== null : b.event_id === null));
    const venues = await venuesOf(rows.map((r) => r.venue_id));
    return { rows, venues };
  }

  async function bookings(user: AccountUser) {
    const { rows, venues } = await bookingViews(user, 'bookings');
    const items = await Promise.all(
      rows.map(async (b) => {
        const venue = venueView(venues.get(b.venue_id), b.venue_id);
        return {
          id: b.id,
          reference: b.reference,
          kind: b.kind,
          status: b.status,
          venue,
          date: b.booking_date,
          time: b.start_time,
          duration_minutes: b.duration_minutes,
          party_size: b.guest_count,
          upcoming: isUpcoming(b, venue.timezone),
          qr_url: NO_QR.includes(b.status)
            ? null
            : `/api/public/venues/${encodeURIComponent(b.venue_id)}/booking/${encodeURIComponent(b.id)}/qr`,
          manage_token: await deps.manageToken(b),
        };
      }),
    );
    return {
      upcoming: items.filter((b) => b.upcoming).reverse(),
      past: items.filter((b) => !b.upcoming),
    };
  }

  async function tickets(user: AccountUser) {
    const { rows, venues } = await bookingViews(user, 'tickets');
    const lines = await accountTickets(
      db,
      rows.map((r) => r.id),
    );
    return Promise.all(
      rows.map(async (b) => {
        const mine = lines.filter((l) => l.booking_id === b.id);
        const venue = venueView(venues.get(b.venue_id), b.venue_id);
        const first = mine[0];
        return {
          booking_id: b.id,
          reference: b.reference,
          status: b.status,
          venue,
          event: {
            id: b.event_id!,
            name: first?.event_name ?? '',
            date: first?.event_date ?? b.booking_date,
            start_time: first?.start_time ?? b.start_time,
          },
          upcoming: isUpcoming(b, venue.timezone),
          tickets: mine.map((l) => ({ ticket_type: l.ticket_type_name ?? '', quantity: l.quantity, unit_price_pence: l.unit_price_pence })),
          total_pence: b.total_pence,
          qr_code: first && !NO_QR.includes(b.status) ? await qrDataUrl(first.qr_token) : null,
        };
      }),
    );
  }

  async function vouchers(user: AccountUser) {
    const rows = await guestVouchers(db, null, null, user.email);
    const venues = await venuesOf(rows.map((r) => r.venue_id));
    return Promise.all(
      rows.map(async (v) => ({
        id: v.id,
        code: v.code,
        venue: { id: v.venue_id, name: venues.get(v.venue_id)?.name ?? '' },
        amount_pence: v.amount_pence,
        remaining_pence: v.remaining_pence,
        status: v.status,
        mode: v.mode,
        roles: v.roles,
        recipient_name: v.recipient_name,
        created_at: v.created_at,
        qr_code: await qrDataUrl(v.code),
      })),
    );
  }

  async function preferences(userId: string): Promise<Preferences & { updated_at: string | null }> {
    const row = await db.kysely.selectFrom('account_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return { ...DEFAULT_PREFERENCES, updated_at: null };
    return {
      marketing_email: row.marketing_email === 1,
      marketing_sms: row.marketing_sms === 1,
      reminders_email: row.reminders_email === 1,
      reminders_sms: row.reminders_sms === 1,
      updated_at: row.updated_at,
    };
  }

  async function ledger(user: AccountUser, limit: number) {
    const [balance, entries] = await Promise.all([deps.payments.keysBalance(user.id), keysLedger(db, user.id, limit)]);
    return { balance, pence_per_key: PENCE_PER_KEY, data: entries };
  }

  return {
    bookings,
    tickets,
    vouchers,
    preferences: (user: AccountUser) => preferences(user.id),
    ledger: (user: AccountUser) => ledger(user, LEDGER_PAGE),

    async savePreferences(user: AccountUser, changes: Partial<Preferences>) {
      const current = await preferences(user.id);
      const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as Preferences;
      const now = clock.now().toISOString();
      const row = {
        marketing_email: next.marketing_email ? 1 : 0,
        marketing_sms: next.marketing_sms ? 1 : 0,
        reminders_email: next.reminders_email ? 1 : 0,
        reminders_sms: next.reminders_sms ? 1 : 0,
        updated_at: now,
      };
      await db.kysely
        .insertInto('account_preferences')
        .values({ user_id: user.id, ...row })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
        .execute();
      return preferences(user.id);
    },

    /** A checkout session for `keys` keys at PENCE_PER_KEY each; the provider's paid webhook runs `keys_topup`. */
    async topUp(user: AccountUser, keys: number) {
      if (!Number.isInteger(keys) || keys < 1 || keys > MAX_TOPUP_KEYS)
        throw badRequest(`keys must be a whole number from 1 to ${MAX_TOPUP_KEYS}`);
      const amount = keys * PENCE_PER_KEY;
      const app = `${deps.publicBaseUrl}/account`;
      const session = await deps.payments.createCheckoutSession({
        amountPence: amount,
        name: `${keys} keys`,
        metadata: { kind: 'keys_topup', user_id: user.id, keys: String(keys) },
        successUrl: `${app}?topup=done#keys`,
        cancelUrl: `${app}?topup=cancelled#keys`,
        customerEmail: user.email,
      });
      return { session_id: session.id, checkout_url: session.url ?? '', keys, amount_pence: amount };
    },

    /** Everything the platform holds on the guest, as one JSON document. */
    async exportData(user: AccountUser) {
      const profile = await profileOf(user);
      const [myBookings, myTickets, myVouchers, prefs, keys] = await Promise.all([
        bookings(user),
        tickets(user),
        vouchers(user),
        preferences(user.id),
        ledger(user, EXPORT_LEDGER),
      ]);
      const strip = <T extends { manage_token?: string }>({ manage_token: _t, ...rest }: T) => rest;
      return {
        exported_at: clock.now().toISOString(),
        account: {
          id: profile.id,
          name: profile.name,
          email: profile.email,
          phone: profile.phone,
          membership_tier: profile.membership_tier,
          created_at: profile.created_at,
        },
        preferences: prefs,
        keys: { balance: keys.balance, ledger: keys.data },
        bookings: [...myBookings.upcoming, ...myBookings.past].map(strip),
        tickets: myTickets.map(({ qr_code: _q, ...rest }) => rest),
        vouchers: myVouchers.map(({ qr_code: _q, ...rest }) => rest),
      };
    },

    /**
     * Erases the account: at every operator holding the guest (their roster, or where their bookings and
     * vouchers are) as an operator's erasure does, then the account itself; bookings, vouchers, payments
     * and the keys ledger stay, anonymised. The guest confirms by typing their email.
     */
    async erase(user: AccountUser, confirmEmail: string) {
      if (normaliseEmail(confirmEmail) !== normaliseEmail(user.email)) throw badRequest('Type your email address to confirm');
      const [all, myVouchers] = await Promise.all([accountBookings(db, user.id, user.email), guestVouchers(db, null, null, user.email)]);
      const venues = await venuesOf([...all.map((b) => b.venue_id), ...myVouchers.map((v) => v.venue_id)]);
      const operatorIds = [...new Set([...all.map((b) => b.operator_id), ...[...venues.values()].map((v) => v.operator_id)])];
      const now = clock.now();
      const operators = await withTransaction(db, async (trx) => {
        const erased = await deps.eraseEverywhere(trx, { id: user.id, email: user.email }, operatorIds, now);
        await trx.deleteFrom('account_preferences').where('user_id', '=', user.id).execute();
        await trx.deleteFrom('account_sign_in_codes').where('email', '=', normaliseEmail(user.email)).execute();
        await eraseGuestAccount(trx, user.id, now);
        return erased;
      });
      return { success: true as const, operators_erased: operators.length };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

/**
 * Promoters (docs/promoters.md): organisers with a `promoter` user account and no operator account, who
 * run events at venues under a venue–promoter agreement. This module owns the agreements (status and
 * the share of ticket revenue, whole percent, set by the venue), the venue's emailed invitations
 * (promoter-invitations.ts), self sign-up proven by a mailed code (promoter-sign-up.ts) and venue
 * requests, and the ledger of each sale's share and of its refunds (promoter-ledger.ts). The events
 * themselves are the events module's (its organiser events, reached through its index). This file holds
 * the service: the agreements on both sides, the promoter's events, sales and earnings, and the hooks the
 * events module calls; it composes the invitation and sign-up flows.
 */
import type { Db } from '../../db/connect.js';
import { kyselyOf, lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import type { RateLimits } from '../../platform/rate-limit.js';
import { renderMail } from '../../platform/mail/templates.js';
import { userSummaries, type Sessions } from '../auth/index.js';
import type { EventRow, OrganiserEvents, SubmissionBody, SubmissionUpdateBody } from '../events/index.js';
import { venueSubmissions } from '../events/index.js';
import { createPromoterInvitations } from './promoter-invitations.js';
import { shareOf } from './promoter-ledger.js';
import { createPromoterSignUp } from './promoter-sign-up.js';
import type { Agreement } from './promoters.schemas.js';

const pairLock = (venueId: string, promoterId: string) => `promoter-agreement:${venueId}:${promoterId}`;

/** The operator account of the venue when the promoter holds an active agreement with it. */
export async function activeAgreement(conn: Conn, promoterId: string, venueId: string) {
  return kyselyOf(conn)
    .selectFrom('promoter_agreements')
    .select(['operator_id', 'venue_id', 'share_percent'])
    .where('promoter_id', '=', promoterId)
    .where('venue_id', '=', venueId)
    .where('status', '=', 'active')
    .executeTakeFirst();
}

interface PromotersDeps {
  db: Db;
  clock: Clock;
  mail: Mail;
  rateLimits: RateLimits;
  sessions: Sessions;
  publicBaseUrl: string;
  organiser: OrganiserEvents;
  /** Names of the account's venues (the venues module's). */
  venueNames(operatorId: string, venueIds: readonly string[]): Promise<{ id: string; name: string }[]>;
  /** A live venue by id (the venues module's). */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /** A venue of an account (the venues module's), read on `conn`. */
  accountVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
}

type AgreementRow = { id: string; operator_id: string; venue_id: string; promoter_id: string } & Record<string, unknown>;

export function createPromotersService(deps: PromotersDeps) {
  const { db, clock, mail, publicBaseUrl, organiser } = deps;
  const now = () => clock.now().toISOString();
  const signUp = createPromoterSignUp(deps);
  const invitations = createPromoterInvitations(deps);

  const agreements = (conn: Conn) => kyselyOf(conn).selectFrom('promoter_agreements').selectAll();

  async function toAgreements(rows: Awaited<ReturnType<ReturnType<typeof agreements>['execute']>>): Promise<Agreement[]> {
    const people = new Map(
      (
        await userSummaries(
          db,
          rows.map((row) => row.promoter_id),
        )
      ).map((user) => [user.id, user]),
    );
    const venues = new Map<string, string>();
    for (const operatorId of new Set(rows.map((row) => row.operator_id))) {
      const ids = rows.filter((row) => row.operator_id === operatorId).map((row) => row.venue_id);
      for (const venue of await deps.venueNames(operatorId, [...new Set(ids)])) venues.set(venue.id, venue.name);
    }
    return rows.map((row) => ({
      id: row.id,
      venue_id: row.venue_id,
      venue_name: venues.get(row.venue_id) ?? '',
      promoter_id: row.promoter_id,
      promoter_name: people.get(row.promoter_id)?.name ?? '',
      promoter_email: people.get(row.promoter_id)?.email ?? '',
      status: row.status,
      requested_by: row.requested_by,
      share_percent: row.share_percent,
      decided_at: row.decided_at,
      created_at: row.created_at,
    }));
  }

  /** The venue's agreement with the promoter; 404 when there is none. */
  async function agreementOf(conn: Conn, venueId: string, promoterId: string): Promise<AgreementRow & { status: string }> {
    const row = await agreements(conn).where('venue_id', '=', venueId).where('promoter_id', '=', promoterId).executeTakeFirst();
    if (!row) throw notFound('Promoter');
    return row;
  }

  /** Moves the venue's agreement from one of `from` to `to` (409 from anything else). */
  async function move(venue: VenueRow, promoterId: string, from: string[], to: string, set: { share_percent?: number } = {}) {
    await withTransaction(db, async (trx) => {
      await lockKey(db, trx, pairLock(venue.id, promoterId));
      const row = await agreementOf(trx, venue.id, promoterId);
      if (!from.includes(row.status)) throw conflict(`This agreement is ${row.status}: it cannot become ${to}`, { status: row.status });
      await trx
        .updateTable('promoter_agreements')
        .set({ ...set, status: to, decided_at: now(), updated_at: now() })
        .where('id', '=', row.id)
        .execute();
    });
    return { success: true };
  }

  return {
    // ── The venue's side ──────────────────────────────────────────────────────────────────────
    async listOfVenue(venue: VenueRow) {
      const rows = await agreements(db).where('venue_id', '=', venue.id).orderBy('created_at').orderBy('id').execute();
      return { data: await toAgreements(rows) };
    },

    invitationsOfVenue: invitations.invitationsOfVenue,
    /** Mails an invitation to become the venue's promoter (an email with an account: 409; one already pending: 409). */
    invite: invitations.invite,
    revokeInvitation: invitations.revokeInvitation,

    accept: (venue: VenueRow, promoterId: string, share?: number) =>
      move(venue, promoterId, ['pending'], 'active', share === undefined ? {} : { share_percent: share }),
    decline: (venue: VenueRow, promoterId: string) => move(venue, promoterId, ['pending'], 'declined'),
    end: (venue: VenueRow, promoterId: string) => move(venue, promoterId, ['active'], 'ended'),

    /** Sets the share for sales from now on (sales already recorded keep theirs). */
    async setShare(venue: VenueRow, promoterId: string, share: number) {
      await agreementOf(db, venue.id, promoterId);
      await db.kysely
        .updateTable('promoter_agreements')
        .set({ share_percent: share, updated_at: now() })
        .where('venue_id', '=', venue.id)
        .where('promoter_id', '=', promoterId)
        .execute();
      return { success: true };
    },

    async submissions(venue: VenueRow) {
      const rows = await venueSubmissions(db, venue.id);
      const names = new Map(
        (
          await userSummaries(
            db,
            rows.map((row) => row.promoter_id!),
          )
        ).map((user) => [user.id, user.name]),
      );
      return {
        data: rows.map((row) => ({
          id: row.id,
          name: row.name,
          event_date: row.event_date,
          start_time: row.start_time,
          end_time: row.end_time,
          event_type: row.event_type,
          description: row.description,
          promoter_id: row.promoter_id!,
          promoter_name: names.get(row.promoter_id!) ?? '',
          created_at: row.created_at,
        })),
      };
    },

    // ── Public: invitations and sign-up ───────────────────────────────────────────────────────
    preview: invitations.preview,
    /** Creates the promoter account and its active agreement with the venue, once (two accepts of one link: one account). */
    acceptInvitation: invitations.acceptInvitation,

    /** Self sign-up, step 1: mails a code (or a note to an address with an account); nothing is created (promoter-sign-up.ts). */
    register: signUp.register,
    /** Step 2: the code creates the promoter, with no venue yet (it asks venues with `request`), and signs them in. */
    verifySignUp: signUp.verify,

    // ── The promoter's side ───────────────────────────────────────────────────────────────────
    async agreementsOf(promoterId: string) {
      const rows = await agreements(db).where('promoter_id', '=', promoterId).orderBy('created_at').orderBy('id').execute();
      return { data: await toAgreements(rows) };
    },

    /** Asks a live venue to accept the promoter: a new or a declined or ended agreement becomes `pending`. */
    async request(promoterId: string, venueId: string) {
      const venue = await deps.liveVenue(db, venueId);
      if (!venue) throw notFound('Venue');
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, pairLock(venue.id, promoterId));
        const row = await agreements(trx).where('venue_id', '=', venue.id).where('promoter_id', '=', promoterId).executeTakeFirst();
        if (row && (row.status === 'active' || row.status === 'pending')) throw conflict(`Your agreement with this venue is ${row.status}`);
        const at = now();
        if (row) {
          await trx
            .updateTable('promoter_agreements')
            .set({ status: 'pending', requested_by: 'promoter', decided_at: null, updated_at: at })
            .where('id', '=', row.id)
            .execute();
        } else {
          await trx
            .insertInto('promoter_agreements')
            .values({
              id: newId('pag'),
              operator_id: venue.operator_id,
              venue_id: venue.id,
              promoter_id: promoterId,
              status: 'pending',
              requested_by: 'promoter',
              decided_at: null,
              created_at: at,
              updated_at: at,
            })
            .execute();
        }
      });
      return { success: true };
    },

    listEvents: (promoterId: string) => organiser.list(promoterId),
    getEvent: (promoterId: string, id: string) => organiser.get(promoterId, id),
    updateEvent: (promoterId: string, id: string, body: SubmissionUpdateBody) => organiser.update(promoterId, id, body),
    removeEvent: (promoterId: string, id: string) => organiser.remove(promoterId, id),

    /** Submits an event to a venue with which the promoter has an active agreement (404 otherwise). */
    async submitEvent(promoterId: string, body: SubmissionBody) {
      const agreement = await activeAgreement(db, promoterId, body.venue_id);
      const venue = agreement && (await deps.accountVenue(db, agreement.operator_id, agreement.venue_id));
      if (!venue) throw notFound('Venue');
      return organiser.submit(promoterId, venue, body);
    },

    /** The ledger rows of one of the promoter's events (404 for another's). */
    async sales(promoterId: string, eventId: string) {
      await organiser.get(promoterId, eventId);
      const data = await kyselyOf(db)
        .selectFrom('promoter_ledger')
        .select(['id', 'event_id', 'venue_id', 'booking_id', 'kind', 'amount_pence', 'share_percent', 'share_pence', 'created_at'])
        .where('promoter_id', '=', promoterId)
        .where('event_id', '=', eventId)
        // A sale before its refunds when they share an instant.
        .orderBy('created_at')
        .orderBy('refunded_total_pence')
        .orderBy('id')
        .execute();
      // Net of refunds: a refund row's amount and share are negative.
      return {
        data,
        total_amount_pence: data.reduce((sum, row) => sum + row.amount_pence, 0),
        total_refunded_pence: -data.reduce((sum, row) => sum + (row.kind === 'refund' ? row.amount_pence : 0), 0),
        total_share_pence: data.reduce((sum, row) => sum + row.share_pence, 0),
      };
    },

    async earnings(promoterId: string) {
      const rows = await kyselyOf(db)
        .selectFrom('promoter_ledger')
        .select(['event_id', 'venue_id', 'kind', 'amount_pence', 'share_pence'])
        .where('promoter_id', '=', promoterId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      type EventEarnings = {
        event_id: string;
        venue_id: string;
        sales: number;
        amount_pence: number;
        refunded_pence: number;
        share_pence: number;
      };
      const byEvent = new Map<string, EventEarnings>();
      for (const row of rows) {
        const entry = byEvent.get(row.event_id) ?? {
          event_id: row.event_id,
          venue_id: row.venue_id,
          sales: 0,
          amount_pence: 0,
          refunded_pence: 0,
          share_pence: 0,
        };
        if (row.kind === 'sale') entry.sales += 1;
        else entry.refunded_pence -= row.amount_pence;
        // Net of refunds: a refund row's amount and share are negative.
        entry.amount_pence += row.amount_pence;
        entry.share_pence += row.share_pence;
        byEvent.set(row.event_id, entry);
      }
      const events = [...byEvent.values()];
      return {
        total_amount_pence: events.reduce((sum, e) => sum + e.amount_pence, 0),
        total_refunded_pence: events.reduce((sum, e) => sum + e.refunded_pence, 0),
        total_share_pence: events.reduce((sum, e) => sum + e.share_pence, 0),
        events,
      };
    },

    // ── Hooks the events module calls (composition root) ─────────────────────────────────────
    /** Records the promoter's share of a confirmed sale of their event, at the agreement's percent now; once per booking. */
    async recordSale(
      conn: Conn,
      sale: { eventId: string; venueId: string; promoterId: string | null; bookingId: string; amountPence: number },
    ) {
      if (!sale.promoterId) return;
      const agreement = await kyselyOf(conn)
        .selectFrom('promoter_agreements')
        .select('share_percent')
        .where('venue_id', '=', sale.venueId)
        .where('promoter_id', '=', sale.promoterId)
        .executeTakeFirst();
      const percent = agreement?.share_percent ?? 0;
      await kyselyOf(conn)
        .insertInto('promoter_ledger')
        .values({
          id: newId('pld'),
          promoter_id: sale.promoterId,
          venue_id: sale.venueId,
          event_id: sale.eventId,
          booking_id: sale.bookingId,
          kind: 'sale',
          amount_pence: sale.amountPence,
          share_percent: percent,
          share_pence: shareOf(sale.amountPence, percent),
          created_at: now(),
        })
        .onConflict((oc) => oc.columns(['booking_id', 'kind', 'refunded_total_pence']).doNothing())
        .execute();
    },

    /** Mails the promoter the venue's decision on their submission (with the rejection's reason), in the deciding transaction. */
    async submissionDecided(conn: Conn, event: EventRow, decision: 'approved' | 'rejected', reason: string | null) {
      const [promoter] = await userSummaries(conn, [event.promoter_id!]);
      const venue = await deps.accountVenue(conn, event.operator_id, event.venue_id);
      if (!promoter || !venue) return;
      const subject = decision === 'approved' ? `${venue.name} approved ${event.name}` : `${venue.name} did not approve ${event.name}`;
      const { text, html } = renderMail({
        title: subject,
        paragraphs: [
          `Hello ${promoter.name},`,
          decision === 'approved'
            ? `${venue.name} approved your event ${event.name} on ${event.event_date}.`
            : `${venue.name} did not approve your event ${event.name} on ${event.event_date}.`,
          ...(reason ? [`Their reason: ${reason}`] : []),
        ],
        link: { label: 'Open your events', url: `${publicBaseUrl}/app/promoter` },
        venueName: venue.name,
      });
      await mail.queue(conn, { to: promoter.email, subject, text, html, senderName: venue.name });
    },
  };
}

export type PromotersService = ReturnType<typeof createPromotersService>;

/**
 * Promo codes: upper-cased, unique per venue (the unique index settles races), a discount of 0–100 %,
 * optional max uses and expiry, and a redemption counter. `redeemPromoCode` is the one way to use a
 * code: a single conditional UPDATE, so concurrent redemptions never exceed max_uses.
 */
import { DateTime } from 'luxon';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import { kyselyOf, withTransaction, type Conn } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { requiredText } from '../../platform/text.js';
import type { PromoBody, PromoUpdateBody } from './catalogue.schemas.js';
import type { PromoCodesTable } from './catalogue.table.js';

type PromoRow = Selectable<PromoCodesTable>;

export const toPromoCode = (row: PromoRow) => ({
  id: row.id,
  name: row.name,
  code: row.code,
  discount_pct: row.discount_pct,
  max_uses: row.max_uses,
  uses: row.uses,
  expires_at: row.expires_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});
export type PromoCodeView = ReturnType<typeof toPromoCode>;

const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{0,39}$/;
const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Codes are matched as typed by guests: surrounding spaces dropped, case ignored. */
export const normaliseCode = (code: string) => code.trim().toUpperCase();

function validCode(code: string): string {
  const normal = normaliseCode(code);
  if (!CODE_PATTERN.test(normal)) throw badRequest('code must be 1–40 letters, digits, - or _');
  return normal;
}

/** A full timestamp with its offset, stored as UTC `toISOString()` so stored values compare as strings. */
function validExpiry(value: string | null): string | null {
  if (value === null || value === '') return null;
  const parsed = DateTime.fromISO(value.trim(), { setZone: true });
  if (!TIMESTAMP_PATTERN.test(value.trim()) || !parsed.isValid) {
    throw badRequest('expires_at must be an ISO 8601 timestamp with a time and an offset, e.g. 2026-12-31T23:59:00Z');
  }
  return parsed.toJSDate().toISOString();
}

const duplicate = (code: string) => conflict(`The promo code ${code} already exists for this venue`);

export type Redemption = { ok: true; promo: PromoCodeView } | { ok: false; reason: 'not_found' | 'expired' | 'exhausted' };

/**
 * Uses one redemption of a venue's code at `now`. Callers inside a booking transaction pass the
 * transaction. The counter only moves when the code exists, has not expired (expiry is exclusive) and
 * has uses left; the reason is reported otherwise.
 */
export async function redeemPromoCode(db: Conn, venueId: string, code: string, now: Date): Promise<Redemption> {
  const k = kyselyOf(db);
  const normal = normaliseCode(code);
  const at = now.toISOString();
  const redeemed = await k
    .updateTable('promo_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('venue_id', '=', venueId)
    .where('code', '=', normal)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .returningAll()
    .executeTakeFirst();
  if (redeemed) return { ok: true, promo: toPromoCode(redeemed) };
  const row = await k.selectFrom('promo_codes').selectAll().where('venue_id', '=', venueId).where('code', '=', normal).executeTakeFirst();
  if (!row) return { ok: false, reason: 'not_found' };
  if (row.expires_at !== null && row.expires_at <= at) return { ok: false, reason: 'expired' };
  return { ok: false, reason: 'exhausted' };
}

export function createPromoCodesService(deps: { db: Db; clock: Clock; references: References }) {
  const { db, clock, references } = deps;

  async function load(venueId: string, id: string) {
    const row = await db.kysely
      .selectFrom('promo_codes')
      .selectAll()
      .where('venue_id', '=', venueId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Promo code');
    return row;
  }

  async function ensureFree(venueId: string, code: string, exceptId?: string) {
    let query = db.kysely.selectFrom('promo_codes').select('id').where('venue_id', '=', venueId).where('code', '=', code);
    if (exceptId) query = query.where('id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw duplicate(code);
  }

  /** The pre-check gives the usual answer; the unique index gives the same 409 when two writers race. */
  async function writeGuarded(code: string, write: () => Promise<unknown>) {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate(code);
      throw error;
    }
  }

  return {
    async list(venueId: string) {
      const rows = await db.kysely
        .selectFrom('promo_codes')
        .selectAll()
        .where('venue_id', '=', venueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toPromoCode);
    },

    async create(venueId: string, body: PromoBody): Promise<string> {
      const name = requiredText(body.name, 'name');
      const code = validCode(body.code);
      const expires_at = validExpiry(body.expires_at ?? null);
      await ensureFree(venueId, code);
      const id = newId('promo');
      const at = clock.now().toISOString();
      await writeGuarded(code, () =>
        db.kysely
          .insertInto('promo_codes')
          .values({
            id,
            venue_id: venueId,
            name,
            code,
            discount_pct: body.discount_pct,
            max_uses: body.max_uses ?? null,
            uses: 0,
            expires_at,
            created_at: at,
            updated_at: at,
          })
          .execute(),
      );
      return id;
    },

    /** Fields left out keep their values; null clears max_uses and expires_at. */
    async update(venueId: string, id: string, body: PromoUpdateBody): Promise<void> {
      const current = await load(venueId, id);
      const code = body.code !== undefined ? validCode(body.code) : current.code;
      const changes = {
        ...(body.name !== undefined ? { name: requiredText(body.name, 'name') } : {}),
        ...(body.code !== undefined ? { code } : {}),
        ...(body.discount_pct !== undefined ? { discount_pct: body.discount_pct } : {}),
        ...(body.max_uses !== undefined ? { max_uses: body.max_uses } : {}),
        ...(body.expires_at !== undefined ? { expires_at: validExpiry(body.expires_at) } : {}),
      };
      if (code !== current.code) await ensureFree(venueId, code, id);
      await writeGuarded(code, () =>
        db.kysely
          .updateTable('promo_codes')
          .set({ ...changes, updated_at: clock.now().toISOString() })
          .where('id', '=', id)
          .execute(),
      );
    },

    /** Also takes the code off the event profiles that offered it. */
    async remove(venueId: string, id: string): Promise<void> {
      await load(venueId, id);
      await withTransaction(db, async (trx) => {
        await references.repoint(trx, 'promo_code', venueId, new Map([[id, null]]), clock.now().toISOString());
        await trx.deleteFrom('promo_codes').where('id', '=', id).execute();
      });
    },

    async reset(venueId: string, id: string): Promise<void> {
      await load(venueId, id);
      await db.kysely.updateTable('promo_codes').set({ uses: 0, updated_at: clock.now().toISOString() }).where('id', '=', id).execute();
    },
  };
}

export type PromoCodesService = ReturnType<typeof createPromoCodesService>;

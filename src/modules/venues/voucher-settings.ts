/**
 * A venue's gift-voucher settings record: read merged with the defaults, written whole (the vouchers
 * module validates it first). The venues module owns the record because the vouchers widget toggle and
 * the public voucher and combo configurations read it.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { VoucherSettings } from './branding.schemas.js';
import type { VoucherSettingsTable } from './venues.table.js';

/** The same values as the voucher_settings column defaults (migration 0003). */
export const VOUCHER_SETTINGS_DEFAULTS: VoucherSettings = {
  enabled: false,
  expiration_months: 12,
  min_amount_pence: 1000,
  max_amount_pence: 50000,
  fixed_amounts: [2500, 5000, 10000],
  allow_custom: true,
  min_qty: 1,
  max_qty: 10,
  terms: '',
};

function toVoucherSettings(row: Selectable<VoucherSettingsTable> | undefined): VoucherSettings {
  if (!row) return { ...VOUCHER_SETTINGS_DEFAULTS };
  let fixed: number[] | null;
  try {
    const parsed = row.fixed_amounts === null ? null : JSON.parse(row.fixed_amounts);
    fixed = Array.isArray(parsed) ? parsed.filter((n): n is number => Number.isInteger(n)) : null;
  } catch {
    fixed = null;
  }
  return {
    enabled: Boolean(row.enabled),
    expiration_months: row.expiration_months,
    min_amount_pence: row.min_amount_pence,
    max_amount_pence: row.max_amount_pence,
    fixed_amounts: fixed,
    allow_custom: Boolean(row.allow_custom),
    min_qty: row.min_qty,
    max_qty: row.max_qty,
    terms: row.terms,
  };
}

/** The venue's settings, merged with the defaults. */
export async function voucherSettingsOf(db: Db, venueId: string): Promise<VoucherSettings> {
  return toVoucherSettings(await db.kysely.selectFrom('voucher_settings').selectAll().where('venue_id', '=', venueId).executeTakeFirst());
}

/** Stores the venue's whole settings record. */
export async function saveVoucherSettings(db: Conn, venueId: string, settings: VoucherSettings, now: Date): Promise<void> {
  const at = now.toISOString();
  const row = {
    enabled: settings.enabled ? 1 : 0,
    expiration_months: settings.expiration_months,
    min_amount_pence: settings.min_amount_pence,
    max_amount_pence: settings.max_amount_pence,
    fixed_amounts: settings.fixed_amounts === null ? null : JSON.stringify(settings.fixed_amounts),
    allow_custom: settings.allow_custom ? 1 : 0,
    min_qty: settings.min_qty,
    max_qty: settings.max_qty,
    terms: settings.terms,
  };
  await kyselyOf(db)
    .insertInto('voucher_settings')
    .values({ ...row, venue_id: venueId, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('venue_id').doUpdateSet({ ...row, updated_at: at }))
    .execute();
}

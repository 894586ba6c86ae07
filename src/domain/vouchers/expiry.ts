/**
 * When a voucher expires: its expiry date is the issuing venue's local date of issue plus the venue's
 * `expiration_months` (a month later than 31 January is the last day of February), and it can be spent
 * until the end of that date in the venue's time zone.
 */
import { DateTime } from 'luxon';
import { addDays, localToday, localToUtc } from '../venue-time.js';

export interface VoucherExpiry {
  /** The last day it can be spent, venue-local `YYYY-MM-DD` (the spec's `expires_at`). */
  expiresOn: string;
  /** The instant it stops being valid: the start of the next local day. */
  validUntil: Date;
}

export function voucherExpiry(issuedAt: Date, zone: string, months: number): VoucherExpiry {
  if (!Number.isInteger(months) || months < 1) throw new RangeError(`expiration months must be a positive integer, not ${months}`);
  const expiresOn = DateTime.fromISO(localToday(issuedAt, zone), { zone: 'UTC' }).plus({ months }).toFormat('yyyy-LL-dd');
  return { expiresOn, validUntil: localToUtc(addDays(expiresOn, 1), '00:00', zone) };
}

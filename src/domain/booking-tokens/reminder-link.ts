/**
 * Reminder-link tokens: the one-tap "confirm", "cancel" and "unsubscribe" links of a booking reminder
 * (docs/messages.md). Like the manage link (manage-link.ts) they are MACed, under a key derived for this
 * one purpose from the same server secret, and name the booking, the action and an expiry; a token for
 * one action is never valid for another. A valid token only proves we issued it: whether the action may
 * still happen (a second confirm, a cancelled booking) is the reminders service's decision.
 *
 * Format: `rl1.<base64url payload>.<base64url tag>`, payload `{"b":bookingId,"a":action,"exp":ms}`.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { assertTokenId, assertValidTime, encodeBase64Url, isTimestamp, isTokenId, parseJsonObject, splitToken } from './token-encoding.js';

const PREFIX = 'rl1';
const TAG_BYTES = 32;
const KEY_INFO = 'maitred/booking-reminder-link/v1';
const MIN_SECRET_BYTES = 32;

export const REMINDER_TOKEN_MAX_LENGTH = 512;

export const REMINDER_ACTIONS = ['confirm', 'cancel', 'unsubscribe'] as const;
export type ReminderAction = (typeof REMINDER_ACTIONS)[number];

export type ReminderTokenVerification =
  | { ok: true; bookingId: string; action: ReminderAction; expiresAt: Date }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

const isAction = (value: unknown): value is ReminderAction => (REMINDER_ACTIONS as readonly unknown[]).includes(value);

export function signReminderToken(
  claims: { bookingId: string; action: ReminderAction; expiresAt: Date },
  secret: string | Uint8Array,
): string {
  assertTokenId(claims.bookingId, 'bookingId');
  if (!isAction(claims.action)) throw new RangeError(`unknown reminder action ${String(claims.action)}`);
  const exp = assertValidTime(claims.expiresAt, 'expiresAt');
  const signingInput = `${PREFIX}.${encodeBase64Url(JSON.stringify({ b: claims.bookingId, a: claims.action, exp }))}`;
  return `${signingInput}.${encodeBase64Url(tagOf(signingInput, keyOf(secret)))}`;
}

/** Any input gives a result, never an exception; the tag is compared in constant time before the payload is read. */
export function verifyReminderToken(token: unknown, secret: string | Uint8Array, now: Date): ReminderTokenVerification {
  const key = keyOf(secret);
  const at = assertValidTime(now, 'now');
  const parts = splitToken(token, PREFIX, REMINDER_TOKEN_MAX_LENGTH, TAG_BYTES);
  if (!parts) return { ok: false, reason: 'malformed' };
  if (!timingSafeEqual(parts.tag, tagOf(parts.signingInput, key))) return { ok: false, reason: 'bad_signature' };
  const claims = parseJsonObject(parts.payload);
  if (!claims || !isTokenId(claims.b) || !isAction(claims.a) || !isTimestamp(claims.exp)) return { ok: false, reason: 'malformed' };
  if (at >= claims.exp) return { ok: false, reason: 'expired' };
  return { ok: true, bookingId: claims.b, action: claims.a, expiresAt: new Date(claims.exp) };
}

function tagOf(signingInput: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(signingInput, 'ascii').digest();
}

function keyOf(secret: string | Uint8Array): Buffer {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (bytes.length < MIN_SECRET_BYTES) throw new RangeError(`the reminder-link secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), KEY_INFO, TAG_BYTES));
}

/**
 * Guest manage-link tokens: the part of the link in booking mail that lets a guest view and cancel their
 * booking without an account. Only the server checks them, so they are MACed rather than signed:
 * HMAC-SHA256 under a key derived (HKDF-SHA256) from the server secret for this one purpose, so the same
 * secret can serve other purposes without a tag from one being valid for another.
 *
 * Format: `mm1.<base64url payload>.<base64url tag>`, the payload being the UTF-8 JSON
 * `{"b":bookingId,"exp":ms}` (Unix milliseconds) and the tag HMAC-SHA256 over the ASCII bytes of
 * `mm1.<base64url payload>`. A valid token only proves the link was ours; whether the booking may still be
 * cancelled (its status, the payment policy's cut-off) is the booking service's decision.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { assertTokenId, assertValidTime, encodeBase64Url, isTimestamp, isTokenId, parseJsonObject, splitToken } from './token-encoding.js';

const PREFIX = 'mm1';
const TAG_BYTES = 32;
const KEY_INFO = 'maitred/booking-manage-link/v1';
/** A server secret shorter than this is a configuration mistake (SECRETS_KEY is 32 bytes). */
const MIN_SECRET_BYTES = 32;

/** Longer than any token we issue; anything longer is rejected unread. */
export const MANAGE_TOKEN_MAX_LENGTH = 512;

/**
 * How long after the booking starts its link keeps working: long enough to look the booking up after the
 * visit (the receipt, the time), short enough that an old mail is not a standing key.
 */
export const MANAGE_LINK_GRACE_MS = 24 * 60 * 60_000;

export interface ManageTokenClaims {
  bookingId: string;
  expiresAt: Date;
}

export type ManageTokenVerification =
  { ok: true; bookingId: string; expiresAt: Date } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

/** The usual expiry of a booking's manage link: a day after the booking starts. */
export function manageLinkExpiry(bookingStartsAt: Date): Date {
  return new Date(assertValidTime(bookingStartsAt, 'bookingStartsAt') + MANAGE_LINK_GRACE_MS);
}

/** Throws only for the caller's mistakes (invalid id, date or secret). */
export function signManageToken(claims: ManageTokenClaims, secret: string | Uint8Array): string {
  assertTokenId(claims.bookingId, 'bookingId');
  const exp = assertValidTime(claims.expiresAt, 'expiresAt');
  const signingInput = `${PREFIX}.${encodeBase64Url(JSON.stringify({ b: claims.bookingId, exp }))}`;
  return `${signingInput}.${encodeBase64Url(tagOf(signingInput, manageKey(secret)))}`;
}

/**
 * Checks a token from outside: any input gives a result, never an exception (a short secret or an
 * invalid `now` is the server's own fault and throws). The tag is compared in constant time and before the payload is parsed.
 * The token is valid until just before `exp`; no clock-skew allowance, as only the server checks it.
 */
export function verifyManageToken(token: unknown, secret: string | Uint8Array, now: Date): ManageTokenVerification {
  const key = manageKey(secret);
  const at = assertValidTime(now, 'now');
  const parts = splitToken(token, PREFIX, MANAGE_TOKEN_MAX_LENGTH, TAG_BYTES);
  if (!parts) return { ok: false, reason: 'malformed' };
  if (!timingSafeEqual(parts.tag, tagOf(parts.signingInput, key))) return { ok: false, reason: 'bad_signature' };
  const claims = parseJsonObject(parts.payload);
  if (!claims || !isTokenId(claims.b) || !isTimestamp(claims.exp)) return { ok: false, reason: 'malformed' };
  if (at >= claims.exp) return { ok: false, reason: 'expired' };
  return { ok: true, bookingId: claims.b, expiresAt: new Date(claims.exp) };
}

function tagOf(signingInput: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(signingInput, 'ascii').digest();
}

// The key derived from the last string secret: a server has one secret, and deriving costs an HKDF.
let lastDerived: { secret: string; key: Buffer } | undefined;

function manageKey(secret: string | Uint8Array): Buffer {
  if (typeof secret === 'string' && lastDerived?.secret === secret) return lastDerived.key;
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (bytes.length < MIN_SECRET_BYTES) throw new RangeError(`the manage-link secret must be at least ${MIN_SECRET_BYTES} bytes`);
  const key = Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), KEY_INFO, TAG_BYTES));
  if (typeof secret === 'string') lastDerived = { secret, key };
  return key;
}

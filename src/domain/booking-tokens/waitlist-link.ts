/**
 * Waitlist link tokens: the part of the link in waitlist mail that lets an online guest see their place,
 * leave the list and accept an offered table without an account. Like the manage link they are MACed:
 * HMAC-SHA256 under a key derived (HKDF-SHA256) from the server secret for this one purpose, so a manage
 * token can never pass for a waitlist token or the other way round.
 *
 * Format: `wl1.<base64url payload>.<base64url tag>`, the payload the UTF-8 JSON `{"e":entryId}`. The
 * token does not expire: what it may still do (leave while waiting, accept while offered) is the entry's
 * status, decided by the waitlist service.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { assertTokenId, encodeBase64Url, isTokenId, parseJsonObject, splitToken } from './token-encoding.js';

const PREFIX = 'wl1';
const TAG_BYTES = 32;
const KEY_INFO = 'maitred/waitlist-link/v1';
const MIN_SECRET_BYTES = 32;

/** Longer than any token we issue; anything longer is rejected unread. */
const WAITLIST_TOKEN_MAX_LENGTH = 256;

/** Throws only for the caller's mistakes (an invalid id or a short secret). */
export function signWaitlistToken(entryId: string, secret: string): string {
  assertTokenId(entryId, 'entryId');
  const signingInput = `${PREFIX}.${encodeBase64Url(JSON.stringify({ e: entryId }))}`;
  return `${signingInput}.${encodeBase64Url(tagOf(signingInput, keyOf(secret)))}`;
}

/** The entry a token names, or undefined for anything that is not one of ours; never throws for input. */
export function verifyWaitlistToken(token: unknown, secret: string): string | undefined {
  const key = keyOf(secret);
  const parts = splitToken(token, PREFIX, WAITLIST_TOKEN_MAX_LENGTH, TAG_BYTES);
  if (!parts || !timingSafeEqual(parts.tag, tagOf(parts.signingInput, key))) return undefined;
  const claims = parseJsonObject(parts.payload);
  return claims && isTokenId(claims.e) ? claims.e : undefined;
}

function tagOf(signingInput: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(signingInput, 'ascii').digest();
}

function keyOf(secret: string): Buffer {
  const bytes = Buffer.from(secret, 'utf8');
  if (bytes.length < MIN_SECRET_BYTES) throw new RangeError(`the waitlist-link secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), KEY_INFO, TAG_BYTES));
}

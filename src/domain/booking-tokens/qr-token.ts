/**
 * Booking QR tokens: the text a booking's QR image encodes, naming the booking and its venue and valid
 * for a few minutes. They are signed with the venue's Ed25519 key so that a door device holding only
 * the venue's public key (`GET /api/my-venues/:venueId/door-key`) can check a guest in while offline;
 * the server verifies the same way when staff post `{ qr_token }` to `/api/check-in`.
 *
 * Format: `mq1.<base64url payload>.<base64url signature>`, where the payload is the UTF-8 JSON
 * `{"b":bookingId,"v":venueId,"iat":ms,"exp":ms}` (Unix milliseconds, so `iat` is the endpoint's
 * `issued_at` and nothing is rounded) and the signature is Ed25519 over the ASCII bytes of
 * `mq1.<base64url payload>` (the prefix is signed so a later format cannot be passed off as this one).
 * Verifying: base64url-decode the last part and verify it against those bytes; WebCrypto does this with
 * `crypto.subtle.verify('Ed25519', key, signature, bytes)`.
 *
 * Key forms: the private key is PKCS#8 PEM (what `node:crypto` reads directly; keep it with the venue's
 * other secrets). The public key is published as the raw 32-byte key in base64url (WebCrypto
 * `importKey('raw', …)`, libsodium, noble and every other Ed25519 library take those bytes) and as SPKI
 * PEM (OpenSSL, `importKey('spki', …)` after stripping the armour).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import {
  assertTokenId,
  assertValidTime,
  decodeCanonicalBase64Url,
  encodeBase64Url,
  isTimestamp,
  isTokenId,
  parseJsonObject,
  splitToken,
} from './token-encoding.js';

const PREFIX = 'mq1';
const SIGNATURE_BYTES = 64;
const RAW_PUBLIC_KEY_BYTES = 32;

/** How long a QR image stays valid; the widget refreshes it before then (the endpoint's `expires_in_ms`). */
export const QR_TOKEN_TTL_MS = 5 * 60_000;

/**
 * Allowance for a door device's clock differing from the server's, applied at both ends of the window.
 * Offline devices drift by seconds a day; half a minute covers weeks without NTP while adding only a
 * tenth to a screenshot's useful life.
 */
export const QR_CLOCK_SKEW_MS = 30_000;

/** Longer than any token we issue (ids are at most 128 characters); anything longer is rejected unread. */
export const QR_TOKEN_MAX_LENGTH = 1024;

export interface VenueKeyPair {
  /** Raw 32-byte Ed25519 public key, base64url without padding: the form door devices import. */
  publicKey: string;
  /** The same key as SPKI PEM. */
  publicKeyPem: string;
  /** PKCS#8 PEM; secret. */
  privateKey: string;
}

export type VenuePublicKey = Omit<VenueKeyPair, 'privateKey'>;

export interface QrTokenClaims {
  bookingId: string;
  venueId: string;
  issuedAt: Date;
  ttlMs: number;
}

export type QrTokenVerification =
  | { ok: true; bookingId: string; venueId: string; issuedAt: Date; expiresAt: Date }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' };

export function generateVenueKeyPair(): VenueKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { ...publicKeyForms(createPublicKey(privateKey)), privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/** The publishable forms of a venue's key, from its stored private key: only the private key need be kept. */
export function venuePublicKey(privateKey: string | KeyObject): VenuePublicKey {
  return publicKeyForms(createPublicKey(toPrivateKey(privateKey)));
}

/** Throws only for the caller's mistakes (invalid ids, dates, TTL or key), never for data from outside. */
export function signQrToken(claims: QrTokenClaims, privateKey: string | KeyObject): string {
  assertTokenId(claims.bookingId, 'bookingId');
  assertTokenId(claims.venueId, 'venueId');
  const iat = assertValidTime(claims.issuedAt, 'issuedAt');
  if (!Number.isSafeInteger(claims.ttlMs) || claims.ttlMs <= 0) throw new RangeError('ttlMs must be a positive integer');
  const payload = { b: claims.bookingId, v: claims.venueId, iat, exp: iat + claims.ttlMs };
  const signingInput = `${PREFIX}.${encodeBase64Url(JSON.stringify(payload))}`;
  const signature = sign(null, Buffer.from(signingInput, 'ascii'), toPrivateKey(privateKey));
  return `${signingInput}.${encodeBase64Url(signature)}`;
}

/**
 * Checks a token from outside. Any string (or non-string) gives a result rather than an exception; the
 * payload is parsed only after its signature holds. A token is valid from `iat − skew` until just before
 * `exp + skew`. An unusable `publicKey` or an invalid `now` is the server's own fault and throws, so
 * a broken clock can never let a token through.
 */
export function verifyQrToken(token: unknown, publicKey: string | KeyObject, now: Date): QrTokenVerification {
  const key = toPublicKey(publicKey);
  const at = assertValidTime(now, 'now');
  const parts = splitToken(token, PREFIX, QR_TOKEN_MAX_LENGTH, SIGNATURE_BYTES);
  if (!parts) return { ok: false, reason: 'malformed' };
  if (!verify(null, Buffer.from(parts.signingInput, 'ascii'), key, parts.tag)) return { ok: false, reason: 'bad_signature' };
  const claims = parseJsonObject(parts.payload);
  if (!claims || !isTokenId(claims.b) || !isTokenId(claims.v) || !isTimestamp(claims.iat) || !isTimestamp(claims.exp)) {
    return { ok: false, reason: 'malformed' };
  }
  if (claims.exp <= claims.iat) return { ok: false, reason: 'malformed' };
  if (at < claims.iat - QR_CLOCK_SKEW_MS) return { ok: false, reason: 'not_yet_valid' };
  if (at >= claims.exp + QR_CLOCK_SKEW_MS) return { ok: false, reason: 'expired' };
  return { ok: true, bookingId: claims.b, venueId: claims.v, issuedAt: new Date(claims.iat), expiresAt: new Date(claims.exp) };
}

/**
 * The venue a token claims to be from, read WITHOUT checking its signature: only to pick the key to
 * verify it with (`verifyQrToken`). Undefined for anything that is not a well-formed token.
 */
export function claimedQrVenue(token: unknown): string | undefined {
  const parts = splitToken(token, PREFIX, QR_TOKEN_MAX_LENGTH, SIGNATURE_BYTES);
  const claims = parts ? parseJsonObject(parts.payload) : undefined;
  return claims && isTokenId(claims.v) ? claims.v : undefined;
}

function publicKeyForms(key: KeyObject): VenuePublicKey {
  const { x } = key.export({ format: 'jwk' });
  if (typeof x !== 'string') throw new TypeError('not an Ed25519 key');
  return { publicKey: x, publicKeyPem: key.export({ type: 'spki', format: 'pem' }).toString() };
}

function toPrivateKey(key: string | KeyObject): KeyObject {
  const object = typeof key === 'string' ? createPrivateKey(key) : key;
  if (object.type !== 'private' || object.asymmetricKeyType !== 'ed25519') throw new TypeError('expected an Ed25519 private key');
  return object;
}

/** Accepts either published form (raw base64url or SPKI PEM) or a KeyObject. */
function toPublicKey(key: string | KeyObject): KeyObject {
  let object: KeyObject;
  if (typeof key !== 'string') object = key.type === 'private' ? createPublicKey(key) : key;
  else if (key.trimStart().startsWith('-----BEGIN')) object = createPublicKey(key);
  else {
    const raw = decodeCanonicalBase64Url(key);
    if (raw?.length !== RAW_PUBLIC_KEY_BYTES) throw new TypeError('expected a 32-byte Ed25519 public key in base64url');
    object = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key }, format: 'jwk' });
  }
  if (object.asymmetricKeyType !== 'ed25519') throw new TypeError('expected an Ed25519 public key');
  return object;
}

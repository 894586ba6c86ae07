/**
 * The compact token shape shared by booking QR tokens and manage-link tokens:
 * `<prefix>.<base64url payload>.<base64url tag>`. Parsing is strict because a token's exact text may be
 * used as a key (a check-in log, a rate-limit bucket): Node's base64url decoder silently skips stray
 * characters and ignores the unused low bits of the last character, so several texts would otherwise
 * decode to the same bytes.
 */

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface TokenParts {
  /** The exact text the tag covers: `<prefix>.<payload>`, so the version prefix is bound too. */
  signingInput: string;
  payload: Buffer;
  tag: Buffer;
}

export function encodeBase64Url(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString('base64url');
}

/** Bytes of a base64url text, or undefined unless the text is the one canonical encoding of those bytes. */
export function decodeCanonicalBase64Url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/**
 * Splits a token of the given prefix into its parts, or undefined for anything else. The length cap
 * comes first so that hostile megabyte strings cost nothing beyond a length check.
 */
export function splitToken(token: unknown, prefix: string, maxLength: number, tagBytes: number): TokenParts | undefined {
  if (typeof token !== 'string' || token.length > maxLength) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== prefix) return undefined;
  const payload = decodeCanonicalBase64Url(parts[1]);
  const tag = decodeCanonicalBase64Url(parts[2]);
  if (!payload || !tag || tag.length !== tagBytes) return undefined;
  return { signingInput: `${parts[0]}.${parts[1]}`, payload, tag };
}

/** A JSON object from verified payload bytes, or undefined; never throws. */
export function parseJsonObject(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Millisecond timestamps as tokens carry them: non-negative safe integers. */
export function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Ids as tokens carry them: non-empty, bounded, printable ASCII (ours are `bkg_…`, `ven_…`). */
export function isTokenId(value: unknown): value is string {
  return typeof value === 'string' && /^[\x21-\x7e]{1,128}$/.test(value);
}

/** Throws for the caller's own mistakes (these are bugs, not hostile input). */
export function assertValidTime(date: Date, name: string): number {
  const ms = date instanceof Date ? date.getTime() : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`${name} must be a valid date after 1970`);
  return ms;
}

export function assertTokenId(value: string, name: string): void {
  if (!isTokenId(value)) throw new RangeError(`${name} must be 1-128 printable ASCII characters`);
}

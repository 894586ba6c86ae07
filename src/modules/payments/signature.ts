/**
 * Webhook signatures (spec "Events"; decisions: inbound payment webhook): `Payment-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`,
 * each v1 an HMAC-SHA256 of `<t>.<raw body>` with the signing secret. Several v1 values are allowed
 * (the provider sends one per active secret while a secret is rolled). Pure: the caller gives `now`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';
export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

export function computeSignature(rawBody: Buffer | string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

export function signatureHeader(rawBody: Buffer | string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${computeSignature(rawBody, secret, timestamp)}`;
}

export function verifySignature(
  header: string | undefined,
  rawBody: Buffer,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined) return { ok: false, reason: 'malformed' };
      timestamp = Number(value);
    } else if (key === 'v1') {
      candidates.push(value);
    }
  }
  if (timestamp === undefined || candidates.length === 0) return { ok: false, reason: 'malformed' };
  // Both directions: a timestamp from the future would otherwise stretch the replay window.
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(computeSignature(rawBody, secret, timestamp), 'hex');
  let matched = false;
  for (const candidate of candidates) {
    // Exactly one SHA-256 in hex: Buffer.from(…, 'hex') would silently drop an odd trailing digit or
    // stop at the first non-hex character, accepting a header that is not the signature.
    if (!/^[0-9a-f]{64}$/i.test(candidate)) continue;
    const given = Buffer.from(candidate, 'hex');
    // Every candidate is compared (no early exit), each in constant time.
    if (timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? { ok: true, timestamp } : { ok: false, reason: 'mismatch' };
}

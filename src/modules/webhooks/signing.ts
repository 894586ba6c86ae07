/**
 * Outbound webhook signatures, the same scheme as the inbound payment webhook (CONTRACT.md, Inbound
 * payment webhook; payments/signature.ts): `Maitred-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`,
 * each v1 the HMAC-SHA256 of `<t>.<raw body>` with one of the endpoint's secrets (two for a day after a
 * rotation: the new one first). `t` is the time of the attempt, so a retry is signed afresh.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'Maitred-Signature';

/** A new signing secret: `whsec_` and 32 random bytes (base64url). */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export function signatureHeader(body: string, secrets: readonly string[], timestamp: number): string {
  const signatures = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`);
  return [`t=${timestamp}`, ...signatures].join(',');
}

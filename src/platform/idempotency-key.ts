/**
 * The `Idempotency-Key` request header, as every route that honours it reads it: 1 to 255 visible ASCII
 * characters (surrounding white space dropped), or none. Anything else is a 400 before any work.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { badRequest } from './errors.js';

export const IDEMPOTENCY_KEY_MAX = 255;

export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['idempotency-key'];
  if (value === undefined) return undefined;
  const key = typeof value === 'string' ? value.trim() : '';
  if (!key || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters`);
  }
  return key;
}

/**
 * Opaque, prefixed identifiers (`ven_…`, `bkg_…`): 128 random bits in lower-case base32,
 * unguessable because public endpoints take some of them (booking ids).
 */
import { createHash, randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/**
 * Random bytes for ids, from a pool filled 4 KB at a time by the system's CSPRNG: a call to it per id
 * (five or six a booking) cost more than the rest of making the ids. Secrets (`randomToken`) take theirs
 * straight from the CSPRNG, never from this pool.
 */
const pool = Buffer.alloc(4096);
let pooled = 0;

function idBytes(size: number): Uint8Array {
  if (pooled < size) {
    randomFillSync(pool);
    pooled = pool.length;
  }
  pooled -= size;
  return pool.subarray(pooled, pooled + size);
}

export function newId(prefix: string): string {
  return `${prefix}_${base32(idBytes(16))}`;
}

/** A millisecond in nine base-36 characters: ids that start with it sort by time in byte order. */
const millisecond = (ms: number): string => ms.toString(36).padStart(9, '0');

/**
 * An id for rows written at volume (bookings, guest records, mail and texts): the millisecond it was made
 * (nine base-36 characters, so ids sort by time in byte order), then 128 random bits as `newId`. Every
 * index keyed by such an id takes each new key at its end, on the pages the last commit wrote, instead of
 * on a random page of its own (docs/performance.md, "Ids in the order they are made"). What the id tells
 * its holder is when the row was made, which the row itself answers anyway.
 */
export function orderedId(prefix: string): string {
  return `${prefix}_${millisecond(Date.now())}${base32(idBytes(16))}`;
}

let lastMs = 0;
let sequence = 0;

/**
 * An id that sorts after every earlier one this process made (wall-clock milliseconds, then a counter
 * within the millisecond), then 80 random bits: for rows read back in the order they were written
 * (a booking's history), even when the business clock gives several the same time.
 */
export function sequentialId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else sequence++;
  return `${prefix}_${millisecond(lastMs)}${sequence.toString(36).padStart(4, '0')}${base32(idBytes(10))}`;
}

/**
 * `length` characters drawn uniformly from `alphabet` (2 to 256 characters), with bytes from the ids' pool:
 * a byte past the alphabet's last whole multiple of 256 is drawn again, so no character is likelier.
 */
export function randomChars(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = idBytes(1)[0]!;
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

/** A random URL-safe secret (session tokens, challenge ids). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** The SHA-256 (hex) under which a bearer token is stored and looked up: the token itself is never kept. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

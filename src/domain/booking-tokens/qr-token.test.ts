import { createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  claimedQrVenue,
  generateVenueKeyPair,
  QR_CLOCK_SKEW_MS,
  QR_TOKEN_MAX_LENGTH,
  QR_TOKEN_TTL_MS,
  signQrToken,
  venuePublicKey,
  verifyQrToken,
} from './index.js';

const keys = generateVenueKeyPair();
const issuedAt = new Date('2026-07-15T18:00:00.000Z');
const claims = { bookingId: 'bkg_0123456789abcdefghijklmnop', venueId: 'ven_0123456789abcdefghijklmnop', issuedAt, ttlMs: QR_TOKEN_TTL_MS };
const token = signQrToken(claims, keys.privateKey);
const at = (ms: number) => new Date(issuedAt.getTime() + ms);

/** Re-signs an arbitrary payload with the venue key, to reach the checks behind the signature. */
function signedPayload(payload: string, privateKey = keys.privateKey): string {
  const input = `mq1.${Buffer.from(payload).toString('base64url')}`;
  return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
}

function flipChar(text: string, index: number): string {
  const char = text[index];
  return text.slice(0, index) + (char === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('booking QR tokens', () => {
  it('round-trips the booking, venue and times', () => {
    expect(token).toMatch(/^mq1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).toEqual({
      b: claims.bookingId,
      v: claims.venueId,
      iat: issuedAt.getTime(),
      exp: issuedAt.getTime() + QR_TOKEN_TTL_MS,
    });
    expect(verifyQrToken(token, keys.publicKey, at(1000))).toEqual({
      ok: true,
      bookingId: claims.bookingId,
      venueId: claims.venueId,
      issuedAt,
      expiresAt: at(QR_TOKEN_TTL_MS),
    });
  });

  it('stays small enough for a low-density QR code', () => {
    expect(token.length).toBeLessThan(300);
  });

  it('accepts every published key form and a key derived from the private key', () => {
    expect(venuePublicKey(keys.privateKey)).toEqual({ publicKey: keys.publicKey, publicKeyPem: keys.publicKeyPem });
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    for (const key of [keys.publicKey, keys.publicKeyPem, createPublicKey(keys.publicKeyPem)]) {
      expect(verifyQrToken(token, key, issuedAt).ok).toBe(true);
    }
  });

  it.each([
    ['at issue', 0, true],
    ['just before expiry', QR_TOKEN_TTL_MS - 1, true],
    ['within the skew after expiry', QR_TOKEN_TTL_MS + QR_CLOCK_SKEW_MS - 1, true],
    ['at expiry plus skew', QR_TOKEN_TTL_MS + QR_CLOCK_SKEW_MS, 'expired'],
    ['a day later', 86_400_000, 'expired'],
    ['a reader clock behind by the skew', -QR_CLOCK_SKEW_MS, true],
    ['a reader clock behind by more than the skew', -QR_CLOCK_SKEW_MS - 1, 'not_yet_valid'],
  ])('%s', (_name, offset, expected) => {
    const result = verifyQrToken(token, keys.publicKey, at(offset));
    expect(result.ok ? true : result.reason).toBe(expected);
  });

  it('rejects a tampered payload or signature and another venue key', () => {
    const [prefix, payload, signature] = token.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ b: 'bkg_other', v: claims.venueId, iat: issuedAt.getTime(), exp: 9e12 })).toString(
      'base64url',
    );
    const tampered = [
      `${prefix}.${otherPayload}.${signature}`,
      `${prefix}.${flipChar(payload, 5)}.${signature}`,
      `${prefix}.${payload}.${flipChar(signature, 10)}`,
    ];
    for (const candidate of tampered)
      expect(verifyQrToken(candidate, keys.publicKey, issuedAt)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyQrToken(token, generateVenueKeyPair().publicKey, issuedAt)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects a different version prefix even with the payload and signature intact', () => {
    expect(verifyQrToken(token.replace(/^mq1/, 'mq2'), keys.publicKey, issuedAt)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('rejects non-canonical base64url, so one signature has exactly one text', () => {
    const [prefix, payload, signature] = token.split('.');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 64 bytes leave the last character's 4 low bits unused (zero); setting one changes the text, not the bytes.
    const alias = `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(signature.at(-1) ?? '') + 1]}`;
    expect(Buffer.from(alias, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    expect(verifyQrToken(`${prefix}.${payload}.${alias}`, keys.publicKey, issuedAt)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyQrToken(`${prefix}.${payload}=.${signature}`, keys.publicKey, issuedAt)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['empty', ''],
    ['one part', 'mq1'],
    ['four parts', `${token}.x`],
    ['NUL bytes', `${token}\0`],
    ['a NUL inside', token.replace('.', '.\0')],
    ['spaces', ` ${token}`],
    ['a huge string', `mq1.${'A'.repeat(5_000_000)}.${token.split('.')[2]}`],
    ['just over the cap', token + 'A'.repeat(QR_TOKEN_MAX_LENGTH - token.length + 1)],
    ['a short signature', token.slice(0, -4)],
    ['unicode', 'mq1.ü.✓'],
    ['a number', 42],
    ['null', null],
    ['an object', { toString: () => token }],
  ])('calls %s malformed without throwing', (_name, input) => {
    expect(verifyQrToken(input, keys.publicKey, issuedAt)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['not JSON', '{"b":'],
    ['an array', '[1,2]'],
    ['a missing venue', JSON.stringify({ b: 'bkg_1', iat: 1, exp: 2 })],
    ['a numeric booking id', JSON.stringify({ b: 1, v: 'ven_1', iat: 1, exp: 2 })],
    ['a string timestamp', JSON.stringify({ b: 'bkg_1', v: 'ven_1', iat: '1', exp: 2 })],
    ['a fractional timestamp', JSON.stringify({ b: 'bkg_1', v: 'ven_1', iat: 1.5, exp: 2 })],
    ['expiry before issue', JSON.stringify({ b: 'bkg_1', v: 'ven_1', iat: 2, exp: 1 })],
    ['a control character in the id', JSON.stringify({ b: 'bkg_\n1', v: 'ven_1', iat: 1, exp: 2 })],
  ])('calls a validly signed payload with %s malformed', (_name, payload) => {
    expect(verifyQrToken(signedPayload(payload), keys.publicKey, new Date(1))).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses to sign what it could not verify', () => {
    expect(() => signQrToken({ ...claims, bookingId: '' }, keys.privateKey)).toThrow(RangeError);
    expect(() => signQrToken({ ...claims, venueId: 'ven 1' }, keys.privateKey)).toThrow(RangeError);
    expect(() => signQrToken({ ...claims, issuedAt: new Date(Number.NaN) }, keys.privateKey)).toThrow(RangeError);
    expect(() => signQrToken({ ...claims, ttlMs: 0 }, keys.privateKey)).toThrow(RangeError);
    expect(() => signQrToken(claims, keys.publicKeyPem)).toThrow();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => signQrToken(claims, rsa)).toThrow(TypeError);
  });

  it('throws for an unusable key or clock: a server fault, not a bad token', () => {
    expect(() => verifyQrToken(token, 'not-a-key', issuedAt)).toThrow(TypeError);
    expect(() => verifyQrToken(token, keys.publicKey.slice(1), issuedAt)).toThrow(TypeError);
    expect(() => verifyQrToken(token, keys.publicKey, new Date(Number.NaN))).toThrow(RangeError);
  });

  it('verifies with WebCrypto from the published raw key and SPKI PEM, as an offline door device would', async () => {
    const [prefix, payload, signature] = token.split('.');
    const data = new TextEncoder().encode(`${prefix}.${payload}`);
    const signatureBytes = Buffer.from(signature, 'base64url');
    const rawKey = await crypto.subtle.importKey('raw', Buffer.from(keys.publicKey, 'base64url'), { name: 'Ed25519' }, false, ['verify']);
    expect(await crypto.subtle.verify('Ed25519', rawKey, signatureBytes, data)).toBe(true);
    const spkiDer = Buffer.from(keys.publicKeyPem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    const spkiKey = await crypto.subtle.importKey('spki', spkiDer, { name: 'Ed25519' }, false, ['verify']);
    expect(await crypto.subtle.verify('Ed25519', spkiKey, signatureBytes, data)).toBe(true);
    expect(await crypto.subtle.verify('Ed25519', rawKey, signatureBytes, new TextEncoder().encode(`${prefix}.${payload}x`))).toBe(false);
  });
});

describe('claimedQrVenue', () => {
  it('reads the venue a token names, before (and without) checking its signature; nothing from junk', () => {
    const pair = generateVenueKeyPair();
    const token = signQrToken(
      { bookingId: 'bkg_1', venueId: 'ven_1', issuedAt: new Date('2026-06-19T18:00:00Z'), ttlMs: 60_000 },
      pair.privateKey,
    );
    expect(claimedQrVenue(token)).toBe('ven_1');
    expect(claimedQrVenue('mq1.bm90LWpzb24.AAAA')).toBeUndefined();
    expect(claimedQrVenue('garbage')).toBeUndefined();
    expect(claimedQrVenue(42)).toBeUndefined();
  });
});

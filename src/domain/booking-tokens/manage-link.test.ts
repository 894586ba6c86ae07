import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MANAGE_LINK_GRACE_MS, MANAGE_TOKEN_MAX_LENGTH, manageLinkExpiry, signManageToken, verifyManageToken } from './index.js';

const secret = randomBytes(32);
const expiresAt = new Date('2026-07-16T18:00:00.000Z');
const bookingId = 'bkg_0123456789abcdefghijklmnop';
const token = signManageToken({ bookingId, expiresAt }, secret);
const before = new Date(expiresAt.getTime() - 1);

function flipChar(text: string, index: number): string {
  return text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('manage-link tokens', () => {
  it('round-trips the booking and expiry', () => {
    expect(token).toMatch(/^mm1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyManageToken(token, secret, before)).toEqual({ ok: true, bookingId, expiresAt });
  });

  it('expires at the expiry instant, with no skew allowance', () => {
    expect(verifyManageToken(token, secret, expiresAt)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyManageToken(token, secret, new Date('2030-01-01T00:00:00Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('sets the usual expiry a day after the booking starts', () => {
    const startsAt = new Date('2026-07-15T18:00:00.000Z');
    expect(manageLinkExpiry(startsAt)).toEqual(expiresAt);
    expect(MANAGE_LINK_GRACE_MS).toBe(86_400_000);
  });

  it('rejects a tampered payload or tag and another secret', () => {
    const [prefix, payload, tag] = token.split('.');
    const longer = Buffer.from(JSON.stringify({ b: bookingId, exp: 9e12 })).toString('base64url');
    for (const candidate of [
      `${prefix}.${longer}.${tag}`,
      `${prefix}.${flipChar(payload, 3)}.${tag}`,
      `${prefix}.${payload}.${flipChar(tag, 7)}`,
    ]) {
      expect(verifyManageToken(candidate, secret, before)).toEqual({ ok: false, reason: 'bad_signature' });
    }
    expect(verifyManageToken(token, randomBytes(32), before)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('derives its key for this purpose: an HMAC under the raw secret is not accepted', () => {
    const [prefix, payload] = token.split('.');
    const rawTag = createHmac('sha256', secret).update(`${prefix}.${payload}`).digest('base64url');
    expect(verifyManageToken(`${prefix}.${payload}.${rawTag}`, secret, before)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('takes the secret as text or bytes alike', () => {
    const text = 'a-server-secret-of-at-least-32-bytes!';
    expect(verifyManageToken(signManageToken({ bookingId, expiresAt }, text), Buffer.from(text), before).ok).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['a QR token prefix', token.replace(/^mm1/, 'mq1')],
    ['NUL bytes', `${token}\0`],
    ['a huge string', 'mm1.'.padEnd(10_000_000, 'A')],
    ['just over the cap', token + 'A'.repeat(MANAGE_TOKEN_MAX_LENGTH - token.length + 1)],
    ['a short tag', token.slice(0, -2)],
    ['padding', `${token}=`],
    ['undefined', undefined],
    ['an array', [token]],
  ])('calls %s malformed without throwing', (_name, input) => {
    expect(verifyManageToken(input, secret, before)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['not JSON', '{"b":'],
    ['a missing expiry', JSON.stringify({ b: bookingId })],
    ['a string expiry', JSON.stringify({ b: bookingId, exp: '9e12' })],
    ['a negative expiry', JSON.stringify({ b: bookingId, exp: -1 })],
    ['an empty booking id', JSON.stringify({ b: '', exp: 9e12 })],
  ])('calls a correctly tagged payload with %s malformed', (_name, payload) => {
    // White-box: tag with the documented derived key to reach the shape checks behind the tag.
    const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'maitred/booking-manage-link/v1', 32));
    const input = `mm1.${Buffer.from(payload).toString('base64url')}`;
    const forged = `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
    expect(verifyManageToken(forged, secret, before)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a short secret and invalid claims: configuration and caller mistakes throw', () => {
    expect(() => signManageToken({ bookingId, expiresAt }, 'short')).toThrow(RangeError);
    expect(() => verifyManageToken(token, 'short', before)).toThrow(RangeError);
    expect(() => verifyManageToken(token, secret, new Date(Number.NaN))).toThrow(RangeError);
    expect(() => signManageToken({ bookingId: '', expiresAt }, secret)).toThrow(RangeError);
    expect(() => signManageToken({ bookingId, expiresAt: new Date('nope') }, secret)).toThrow(RangeError);
  });
});

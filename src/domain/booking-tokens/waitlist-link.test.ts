import { describe, expect, it } from 'vitest';
import { signManageToken } from './manage-link.js';
import { signWaitlistToken, verifyWaitlistToken } from './waitlist-link.js';

const SECRET = 'a'.repeat(32);

describe('waitlist link tokens', () => {
  it('names the entry it was signed for', () => {
    const token = signWaitlistToken('wle_abc', SECRET);
    expect(token.startsWith('wl1.')).toBe(true);
    expect(verifyWaitlistToken(token, SECRET)).toBe('wle_abc');
  });

  it('refuses forged, altered and foreign tokens', () => {
    const token = signWaitlistToken('wle_abc', SECRET);
    expect(verifyWaitlistToken(token, 'b'.repeat(32))).toBeUndefined();
    const [prefix, , tag] = token.split('.');
    const other = Buffer.from(JSON.stringify({ e: 'wle_other' })).toString('base64url');
    expect(verifyWaitlistToken(`${prefix}.${other}.${tag}`, SECRET)).toBeUndefined();
    const manage = signManageToken({ bookingId: 'wle_abc', expiresAt: new Date(Date.now() + 60_000) }, SECRET);
    expect(verifyWaitlistToken(manage, SECRET)).toBeUndefined();
    expect(verifyWaitlistToken('x'.repeat(10_000), SECRET)).toBeUndefined();
    expect(verifyWaitlistToken(42, SECRET)).toBeUndefined();
  });

  it('refuses a short secret', () => {
    expect(() => signWaitlistToken('wle_abc', 'short')).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { sign } from './payments.test-helpers.js';
import { computeSignature, verifySignature } from './signature.js';

const secret = 'whsec_test';
const body = Buffer.from('{"id":"evt_1","type":"checkout.session.completed","data":{"object":{}}}');
const now = 1_780_000_000;

describe('verifySignature', () => {
  it('accepts the signature the provider computes over "<t>.<raw body>"', () => {
    expect(verifySignature(sign(body, { timestamp: now }), body, secret, now)).toEqual({ ok: true, timestamp: now });
    expect(computeSignature(body, secret, now)).toBe(sign(body, { timestamp: now }).split('v1=')[1]);
  });

  it.each([
    ['missing header', undefined, 'missing'],
    ['no timestamp', `v1=${computeSignature(body, secret, now)}`, 'malformed'],
    ['no v1', `t=${now}`, 'malformed'],
    ['non-numeric timestamp', `t=abc,v1=${computeSignature(body, secret, now)}`, 'malformed'],
    ['two timestamps', `t=${now},t=${now},v1=${computeSignature(body, secret, now)}`, 'malformed'],
    ['wrong secret', sign(body, { secret: 'whsec_other', timestamp: now }), 'mismatch'],
    ['non-hex v1', `t=${now},v1=zz`, 'mismatch'],
    ['truncated v1', `t=${now},v1=${computeSignature(body, secret, now).slice(0, 40)}`, 'mismatch'],
    ['v1 with an extra hex digit', `t=${now},v1=${computeSignature(body, secret, now)}0`, 'mismatch'],
    ['v1 with a non-hex tail', `t=${now},v1=${computeSignature(body, secret, now)}zz`, 'mismatch'],
  ])('refuses %s', (_name, header, reason) => {
    expect(verifySignature(header, body, secret, now)).toEqual({ ok: false, reason });
  });

  it('refuses a timestamp more than 300 s old or ahead, accepts one at the edge', () => {
    expect(verifySignature(sign(body, { timestamp: now - 300 }), body, secret, now).ok).toBe(true);
    expect(verifySignature(sign(body, { timestamp: now - 301 }), body, secret, now)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySignature(sign(body, { timestamp: now + 301 }), body, secret, now)).toEqual({ ok: false, reason: 'stale' });
  });

  it('accepts any one matching v1 among several', () => {
    const good = computeSignature(body, secret, now);
    const other = computeSignature(body, 'whsec_old', now);
    expect(verifySignature(`t=${now},v1=${other},v1=${good}`, body, secret, now).ok).toBe(true);
    expect(verifySignature(`t=${now}, v1=${good}, v0=abc`, body, secret, now).ok).toBe(true);
    expect(verifySignature(`t=${now},v1=${other},v1=${other}`, body, secret, now).ok).toBe(false);
  });

  it('refuses a body altered by one byte, including whitespace', () => {
    const header = sign(body, { timestamp: now });
    for (let i = 0; i < body.length; i += 7) {
      const altered = Buffer.from(body);
      altered[i] = altered[i] ^ 1;
      expect(verifySignature(header, altered, secret, now)).toEqual({ ok: false, reason: 'mismatch' });
    }
    expect(verifySignature(header, Buffer.concat([body, Buffer.from(' ')]), secret, now).ok).toBe(false);
  });

  it('signs the exact bytes, so a timestamp from another delivery does not verify', () => {
    const header = sign(body, { timestamp: now - 10 }).replace(`t=${now - 10}`, `t=${now}`);
    expect(verifySignature(header, body, secret, now)).toEqual({ ok: false, reason: 'mismatch' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  bearer,
  createGuest,
  createOperator,
  createTestApp,
  mailsTo,
  login,
  registerGuest,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helpers/app.js';
import { SESSION_EXPIRED_MESSAGE } from '../../platform/errors.js';
import { guestForEmail } from './guest-records.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const totp = (secret: string) => generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });

describe('sessions', () => {
  it('logs in, reads me, and logs out invalidating the token', async () => {
    const op = await createOperator(t);
    const me = await t.app.inject({ url: '/api/auth/me', headers: op.headers });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ id: op.userId, role: 'client', email: op.email, operator_id: op.operatorId });
    expect(me.headers['cache-control']).toBe('private, no-store');

    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: op.headers });
    expect(out.json()).toEqual({ success: true });
    const after = await t.app.inject({ url: '/api/auth/me', headers: op.headers });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ request_id: expect.any(String), error: SESSION_EXPIRED_MESSAGE });
  });

  it('answers 401 with the session-expired message for missing, malformed and unknown tokens', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, bearer('not-a-real-token')]) {
      const res = await t.app.inject({ url: '/api/auth/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ request_id: expect.any(String), error: SESSION_EXPIRED_MESSAGE });
    }
  });

  it('slides the session on use and expires it after 72 idle hours', async () => {
    const op = await createOperator(t);
    t.clock.advance(60 * 3600_000); // 60 h: still valid, and the use slides it
    expect((await t.app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
    t.clock.advance(60 * 3600_000); // 120 h after login, 60 h after last use
    expect((await t.app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
    t.clock.advance(72 * 3600_000 + 1000);
    const res = await t.app.inject({ url: '/api/auth/me', headers: op.headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(SESSION_EXPIRED_MESSAGE);
  });

  it('ends a session 30 days after sign-in however busy it is kept (SESSION_MAX_DAYS)', async () => {
    const op = await createOperator(t);
    const started = t.clock.now().getTime();
    while (t.clock.now().getTime() + 48 * 3600_000 < started + 30 * 86_400_000) {
      t.clock.advance(48 * 3600_000);
      expect((await t.app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
    }
    t.clock.set(new Date(started + 30 * 86_400_000 - 1000).toISOString());
    expect((await t.app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
    t.clock.advance(1000);
    const res = await t.app.inject({ url: '/api/auth/me', headers: op.headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: SESSION_EXPIRED_MESSAGE });
  });

  it('refuses wrong passwords and unknown emails alike, and validates the body', async () => {
    const op = await createOperator(t);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: op.email, password: 'nope-nope' } });
    expect(wrong.statusCode).toBe(401);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@x.test', password: 'nope-nope' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe(wrong.json().error);
    const missing = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: op.email } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/password/);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ request_id: expect.any(String), error: 'Malformed JSON body' });
  });

  it('logs in case-insensitively by email', async () => {
    const op = await createOperator(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: op.email.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('rate limits on failed logins', () => {
  it('after 10 failures for one email from one address, refuses that address with 429 even with the right password, not the others', async () => {
    const op = await createOperator(t);
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.0.0.1',
        payload: { email: op.email, password: 'wrong-password' },
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.0.0.1',
      payload: { email: op.email, password: TEST_PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ request_id: expect.any(String), error: 'Too many requests. Please try again later.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The guesser at 10.0.0.1 does not lock the owner out: from their own address they sign in.
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.0.1.1',
      payload: { email: op.email, password: TEST_PASSWORD },
    });
    expect(owner.statusCode).toBe(200);
  });

  it('limits failures per client address across emails', async () => {
    for (let i = 0; i < 10; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.9.9.9',
        payload: { email: `x${i}@y.test`, password: 'wrong-password' },
      });
    }
    const op = await createOperator(t);
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.9.9.9',
      payload: { email: op.email, password: TEST_PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.9.9.10',
      payload: { email: op.email, password: TEST_PASSWORD },
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('two-factor authentication', () => {
  it('sets up, enables, challenges at login, rejects wrong codes, accepts the right one once', async () => {
    const op = await createOperator(t);
    const setup = await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr_code } = setup.json();
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);

    const bad = await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code: '000000' } });
    expect(bad.statusCode).toBe(400);
    const ok = await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code: await totp(secret) } });
    expect(ok.json()).toEqual({ success: true });
    t.clock.advance(30_000); // the code that enabled two-factor is spent: sign in with the next one

    const first = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: op.email, password: TEST_PASSWORD } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ requires_2fa: true, challenge_id: expect.any(String) });
    expect(first.json().token).toBeUndefined();
    const challenge_id = first.json().challenge_id;

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/validate',
      payload: { challenge_id, code: '123456' === (await totp(secret)) ? '654321' : '123456' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({ method: 'POST', url: '/api/2fa/validate', payload: { challenge_id, code: await totp(secret) } });
    expect(right.statusCode).toBe(200);
    expect(right.json().user.id).toBe(op.userId);
    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(right.json().token) });
    expect(me.statusCode).toBe(200);

    const replay = await t.app.inject({ method: 'POST', url: '/api/2fa/validate', payload: { challenge_id, code: await totp(secret) } });
    expect(replay.statusCode).toBe(401);
  });

  it('expires challenges after five minutes and can be disabled with a valid code', async () => {
    const op = await createOperator(t);
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
    await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code: await totp(secret) } });
    const { challenge_id } = (
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: op.email, password: TEST_PASSWORD } })
    ).json();
    t.clock.advance(5 * 60_000 + 1);
    const late = await t.app.inject({ method: 'POST', url: '/api/2fa/validate', payload: { challenge_id, code: await totp(secret) } });
    expect(late.statusCode).toBe(401);

    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/2fa/disable',
          headers: op.headers,
          payload: { code: '000000' === (await totp(secret)) ? '111111' : '000000' },
        })
      ).statusCode,
    ).toBe(400);
    const off = await t.app.inject({ method: 'POST', url: '/api/2fa/disable', headers: op.headers, payload: { code: await totp(secret) } });
    expect(off.json()).toEqual({ success: true });
    expect(await login(t, op.email)).toEqual(expect.any(String));
  });
});

describe('guest registration', () => {
  it('registers a guest who can then log in; a known email gets the same 202 and no account; weak password is 400', async () => {
    const email = `guest-${Date.now()}@example.test`;
    const { register, verify } = await registerGuest(t, { name: 'Gina', email, password: 'long-enough-pw' });
    expect(register.statusCode).toBe(202);
    expect(register.json()).toEqual({ verification_required: true });
    expect(verify!.statusCode).toBe(201);
    expect(verify!.json().user).toMatchObject({ role: 'guest', name: 'Gina', operator_id: null });
    // Registering the address again: the same answer as for any address (no 409 to enumerate with), and a sign-in reminder.
    const again = await registerGuest(t, { name: 'Gina', email, password: 'long-enough-pw' });
    expect(again.register.statusCode).toBe(202);
    expect(again.register.json()).toEqual({ verification_required: true });
    expect(again.verify).toBeUndefined();
    expect((await mailsTo(t, email)).map((m) => m.subject)).toContain('You already have an account');
    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Gina', email: `x${email}`, password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'long-enough-pw' } })).statusCode,
    ).toBe(200);
  });

  it('registering an email known only from bookings claims that guest record once the address is verified (same id)', async () => {
    const email = `booked-${Date.now()}@example.test`;
    const recordId = await guestForEmail(t.db, { name: 'From a booking', email }, t.clock.now());
    expect(recordId).toMatch(/^usr_/);
    // The record has no password: nobody can sign in as it.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'anything-at-all' } })).statusCode,
    ).toBe(401);
    const { register, verify } = await registerGuest(t, { name: 'Bea', email, password: 'long-enough-pw' });
    expect(register.statusCode).toBe(202);
    expect(verify!.statusCode, verify!.body).toBe(201);
    expect(verify!.json().user).toMatchObject({ id: recordId, name: 'Bea', role: 'guest' });
    // Claimed once: registering again creates nothing and verifies nothing.
    const again = await registerGuest(t, { name: 'Eve', email, password: 'another-long-pw' });
    expect(again.register.statusCode).toBe(202);
    expect(again.verify).toBeUndefined();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'long-enough-pw' } })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'another-long-pw' } })).statusCode,
    ).toBe(401);
    // The same email again from a booking finds the account.
    expect(await guestForEmail(t.db, { name: 'Other', email: email.toUpperCase() }, t.clock.now())).toBe(recordId);
  });

  it('guests are refused on operator routes with 403', async () => {
    const guest = await createGuest(t);
    const me = await t.app.inject({ url: '/api/auth/me', headers: guest.headers });
    expect(me.json().user.role).toBe('guest');
  });
});

describe('bot check on registration', () => {
  it('requires a token (400) and refuses a failing one (403) when a secret is configured', async () => {
    const failing = await createTestApp({ TURNSTILE_SECRET_KEY: '2x0000000000000000000000000000000AA' });
    const passing = await createTestApp({ TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA' });
    try {
      const body = { name: 'Bot', email: `bot-${Date.now()}@example.test`, password: 'long-enough-pw' };
      expect((await failing.app.inject({ method: 'POST', url: '/api/auth/register', payload: body })).statusCode).toBe(400);
      expect(
        (await failing.app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...body, turnstile_token: 'x' } })).statusCode,
      ).toBe(403);
      expect(
        (await passing.app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...body, turnstile_token: 'x' } })).statusCode,
      ).toBe(202);
    } finally {
      await failing.close();
      await passing.close();
    }
  });

  it('limits registrations to 5 an hour per client address', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: '10.7.7.7',
        payload: { name: 'R', email: `reg-${i}-${Date.now()}@example.test`, password: 'long-enough-pw' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

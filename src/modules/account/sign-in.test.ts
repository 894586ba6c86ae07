/**
 * Signing in to the guest account with a mailed one-time code: the happy path, a wrong code, an expired
 * one, a replay, the attempts cap (counted before the check), the per-address and per-client limits, a
 * portal user's address (never a code), and the guest record from earlier bookings becoming the account.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createOperator, createTestApp, mailsTo, TEST_NOW, uniqueEmail, type TestApp } from '../../../test/helpers/app.js';
import { INVALID_SIGN_IN_CODE, SIGN_IN_CODE_MAX_ATTEMPTS, SIGN_IN_CODE_TTL_MS } from './sign-in.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'email_code_failures_ip=1000/900,sign_in_code=1000/3600' });
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(TEST_NOW));

let ipCounter = 0;
const nextIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const ask = (email: string, remoteAddress = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/account/sign-in-code', payload: { email }, remoteAddress });
const verify = (email: string, code: string, remoteAddress = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/account/sign-in-code/verify', payload: { email, code }, remoteAddress });

/** The newest code mailed to the address (read from the outbox, as the guest reads their mail). */
async function mailedCode(email: string): Promise<string> {
  const codes = (await mailsTo(t, email)).flatMap((m) => m.subject.match(/sign-in code: (\d{6})$/)?.[1] ?? []);
  const rows = await t.db.kysely.selectFrom('account_sign_in_codes').selectAll().where('email', '=', email).orderBy('id', 'desc').execute();
  const newest = rows[0];
  const code = newest && codes.find((c) => createHash('sha256').update(`${newest.code_salt}:${c}`).digest('hex') === newest.code_hash);
  if (!code) throw new Error(`no sign-in code for ${email}`);
  return code;
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign-in by a mailed code', () => {
  it('mails a code, keeps it only hashed, and signs the guest in once with it', async () => {
    const email = uniqueEmail('code');
    const res = await ask(email);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ code_sent: true });
    const code = await mailedCode(email);
    const row = await t.db.kysely.selectFrom('account_sign_in_codes').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.expires_at).toBe(new Date(Date.parse(TEST_NOW) + SIGN_IN_CODE_TTL_MS).toISOString());

    const signedIn = await verify(email, code);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { role: 'guest', email, operator_id: null }, token: expect.any(String) });
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(signedIn.json().token) });
    expect(me.json().user).toMatchObject({ email, role: 'guest' });

    // Replay: the code was used.
    const replay = await verify(email, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe(INVALID_SIGN_IN_CODE);
    expect(await t.db.kysely.selectFrom('account_sign_in_codes').select('id').where('email', '=', email).execute()).toEqual([]);
  });

  it('refuses a wrong code and an expired one', async () => {
    const email = uniqueEmail('wrong');
    await ask(email);
    const code = await mailedCode(email);
    const bad = await verify(email, wrong(code));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(INVALID_SIGN_IN_CODE);
    // The right code still works after one wrong guess.
    expect((await verify(email, code)).statusCode).toBe(200);

    const late = uniqueEmail('late');
    await ask(late);
    const lateCode = await mailedCode(late);
    t.clock.advance(SIGN_IN_CODE_TTL_MS);
    expect((await verify(late, lateCode)).statusCode).toBe(400);
  });

  it('counts guesses before checking: after the cap even the right code is refused', async () => {
    const email = uniqueEmail('cap');
    await ask(email);
    const code = await mailedCode(email);
    // Concurrent wrong guesses cannot spend more than the cap.
    const guesses = await Promise.all(Array.from({ length: SIGN_IN_CODE_MAX_ATTEMPTS + 3 }, () => verify(email, wrong(code))));
    expect(guesses.every((g) => g.statusCode === 400)).toBe(true);
    const row = await t.db.kysely
      .selectFrom('account_sign_in_codes')
      .select('attempts')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(SIGN_IN_CODE_MAX_ATTEMPTS);
    expect((await verify(email, code)).statusCode).toBe(400);
  });

  it('limits wrong codes per address from any client address (429), and codes asked for per address', async () => {
    const email = uniqueEmail('limit');
    await ask(email);
    const code = await mailedCode(email);
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await verify(email, wrong(code))).statusCode);
    expect(answers.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(answers[10]).toBe(429);

    const flooded = uniqueEmail('flood');
    const asks: number[] = [];
    for (let i = 0; i < 6; i++) asks.push((await ask(flooded)).statusCode);
    expect(asks).toEqual([202, 202, 202, 202, 202, 429]);
    // At most three live codes per address.
    expect(await t.db.kysely.selectFrom('account_sign_in_codes').select('id').where('email', '=', flooded).execute()).toHaveLength(3);
  });

  it("never mails a code to a portal user's address, and answers the same", async () => {
    const op = await createOperator(t);
    const res = await ask(op.email);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ code_sent: true });
    const mails = await mailsTo(t, op.email);
    expect(mails.map((m) => m.subject)).toEqual(['Sign in to the portal']);
    expect(mails[0].text_body).not.toMatch(/\d{6}/);
    expect(await t.db.kysely.selectFrom('account_sign_in_codes').select('id').where('email', '=', op.email).execute()).toEqual([]);
  });

  it('makes the guest record of the address (from earlier bookings) the account, and validates input', async () => {
    const email = uniqueEmail('record');
    const { guestForEmail } = await import('../auth/index.js');
    const recordId = await guestForEmail(t.db, { name: 'Booked Before', email }, t.clock.now());
    await ask(email.toUpperCase());
    const signedIn = await verify(email, await mailedCode(email));
    expect(signedIn.json().user).toMatchObject({ id: recordId, name: 'Booked Before' });

    expect((await t.app.inject({ method: 'POST', url: '/api/account/sign-in-code', payload: { email: 'nope' } })).statusCode).toBe(400);
    expect((await verify(email, '12345')).statusCode).toBe(400);
    expect((await verify(email, 'abcdef')).statusCode).toBe(400);
  });
});

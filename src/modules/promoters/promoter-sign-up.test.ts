/**
 * Promoter self sign-up in two steps, over HTTP on both engines: nothing exists before the mailed code
 * is verified; the same 202 for every address (an address with an account is mailed a note, never a code,
 * and never answered 409); wrong, expired and replayed codes are refused alike; racing verifies of one code
 * create one account; attempts count before the work.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOperator, createTestApp, mailsTo, uniqueEmail, type TestApp } from '../../../test/helpers/app.js';
import { guestForEmail } from '../auth/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let addresses = 0;
const nextAddress = () => `10.29.${Math.floor(++addresses / 250)}.${addresses % 250}`;
const register = (email: string, password = 'promoter-password-1', remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/promoter/register', remoteAddress, payload: { name: 'Sam Self', email, password } });
const verify = (email: string, code: string, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/promoter/verify-email', remoteAddress, payload: { email, code } });
const users = (email: string) => t.db.kysely.selectFrom('users').selectAll().where('email', '=', email).execute();
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The code of the address's newest pending sign-up, read from its mail and matched against the stored hash. */
async function codeFor(email: string): Promise<string> {
  const pending = await t.db.kysely
    .selectFrom('promoter_sign_ups')
    .select(['code_salt', 'code_hash'])
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const codes = (await mailsTo(t, email)).flatMap((mail) => mail.subject.match(/verification code: (\d{6})$/)?.[1] ?? []);
  const code = pending && codes.find((c) => createHash('sha256').update(`${pending.code_salt}:${c}`).digest('hex') === pending.code_hash);
  if (!code) throw new Error(`no sign-up code pending for ${email}`);
  return code;
}

describe('promoter sign-up', () => {
  it('creates nothing before the code; the code creates the promoter and signs them in; they can ask a venue', async () => {
    const email = uniqueEmail('self');
    const res = await register(email);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ verification_required: true });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(await users(email)).toEqual([]);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'promoter-password-1' } });
    expect(login.statusCode).toBe(401);
    const code = await codeFor(email);
    const row = await t.db.kysely.selectFrom('promoter_sign_ups').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.password_hash).not.toContain('promoter-password-1');

    const verified = await verify(email, code);
    expect(verified.statusCode, verified.body).toBe(201);
    expect(verified.json()).toEqual({
      user: { id: expect.any(String), role: 'promoter', name: 'Sam Self', email, operator_id: null },
      token: expect.any(String),
    });
    expect(await users(email)).toEqual([expect.objectContaining({ role: 'promoter', operator_id: null })]);
    // The answer is a session, as signing in's is; the password is the one given at sign-up.
    const headers = bearer(verified.json().token);
    expect((await t.app.inject({ url: '/api/auth/me', headers })).json().user).toMatchObject({ role: 'promoter', email });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'promoter-password-1' } });
    expect(signIn.json().user).toMatchObject({ role: 'promoter' });
    expect((await t.app.inject({ url: '/api/promoter/agreements', headers })).json()).toEqual({ data: [] });
    expect(await t.db.kysely.selectFrom('promoter_sign_ups').select('id').where('email', '=', email).execute()).toEqual([]);

    // Replay: the used code creates nothing more.
    const replay = await verify(email, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('Invalid or expired verification code');
    expect(await users(email)).toHaveLength(1);
  });

  it('answers an address with an account the same 202, mails it a note (no code) and never a 409', async () => {
    const operator = await createOperator(t);
    const record = uniqueEmail('record');
    await guestForEmail(t.db, { name: 'Rec', email: record }, t.clock.now());
    const fresh = uniqueEmail('fresh');
    const answers = [];
    for (const email of [fresh, operator.email, record]) {
      const res = await register(email);
      answers.push([res.statusCode, res.body]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([202, JSON.stringify({ verification_required: true })]);
    for (const email of [operator.email, record]) {
      const mails = await mailsTo(t, email);
      expect(mails.map((m) => m.subject)).toEqual(['This email already has an account']);
      expect(mails[0]!.text_body).not.toMatch(/\d{6}/);
      expect(await t.db.kysely.selectFrom('promoter_sign_ups').select('id').where('email', '=', email).execute()).toEqual([]);
    }
    expect((await mailsTo(t, operator.email))[0]!.text_body).toMatch(/Sign in with your password/);
    expect((await users(operator.email))[0]).toMatchObject({ role: 'client' });
    expect((await users(record))[0]).toMatchObject({ role: 'guest', password_hash: null });
  });

  it('refuses a wrong code and an expired one alike, and spends attempts: 5 per code', async () => {
    const email = uniqueEmail('wrong');
    await register(email);
    const code = await codeFor(email);
    for (let i = 0; i < 5; i++) {
      const res = await verify(email, wrong(code));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Invalid or expired verification code');
    }
    expect((await verify(email, code)).statusCode).toBe(400);
    expect(await users(email)).toEqual([]);

    const late = uniqueEmail('late');
    await register(late);
    const lateCode = await codeFor(late);
    t.clock.advance(15 * 60_000);
    const expired = await verify(late, lateCode);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe('Invalid or expired verification code');
    expect(await users(late)).toEqual([]);
  });

  it("each sign-up's code carries its own password: a later sign-up of the address cannot take the owner's", async () => {
    const email = uniqueEmail('again');
    await register(email, 'owners-password');
    const owners = await codeFor(email);
    await register(email, 'attacker-password');
    expect((await verify(email, owners)).statusCode).toBe(201);
    const signIn = (password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect((await signIn('owners-password')).statusCode).toBe(200);
    expect((await signIn('attacker-password')).statusCode).toBe(401);
    expect(await t.db.kysely.selectFrom('promoter_sign_ups').select('id').where('email', '=', email).execute()).toEqual([]);
  });

  it('racing verifies of one code create one account', async () => {
    const email = uniqueEmail('race');
    await register(email);
    const code = await codeFor(email);
    const answers = await Promise.all([verify(email, code), verify(email, code), verify(email, code)]);
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(2);
    expect(await users(email)).toHaveLength(1);
  });

  it('counts attempts before the work: sign-ups per client address and per email, wrong codes per email', async () => {
    const ip = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await register(uniqueEmail('burst'), 'promoter-password-1', ip)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);

    const email = uniqueEmail('flood');
    const perEmail: number[] = [];
    for (let i = 0; i < 6; i++) perEmail.push((await register(email)).statusCode);
    expect(perEmail).toEqual([202, 202, 202, 202, 202, 429]);
    expect(await mailsTo(t, email)).toHaveLength(5);
    expect(await t.db.kysely.selectFrom('promoter_sign_ups').select('id').where('email', '=', email).execute()).toHaveLength(3);

    // Wrong codes for one email from many addresses: 10 per 15 minutes, then 429 even for the right code.
    const code = await codeFor(email);
    const guesses: number[] = [];
    for (let i = 0; i < 11; i++) guesses.push((await verify(email, wrong(code))).statusCode);
    expect(guesses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(guesses[10]).toBe(429);
    expect((await verify(email, code)).statusCode).toBe(429);
    expect(await users(email)).toEqual([]);
  });

  it('validates the body', async () => {
    expect((await register('not-an-email')).statusCode).toBe(400);
    expect((await register(uniqueEmail('short'), 'short')).statusCode).toBe(400);
    expect((await verify(uniqueEmail('x'), '12345')).statusCode).toBe(400);
    expect((await verify(uniqueEmail('x'), 'abcdef')).statusCode).toBe(400);
  });
});

/**
 * Guest registration in two steps (security round 2, finding 2): nothing is created or linked before the
 * address is proven with the mailed code; the code is hashed at rest, lasts 15 minutes, is used once and
 * allows 5 attempts; wrong codes are rate limited like failed sign-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mailsTo, registerGuest, uniqueEmail, verificationCodeFor, type TestApp } from '../../../test/helpers/app.js';
import { guestForEmail } from './guest-records.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

// Registrations are limited per client address (5 an hour): each comes from an address of its own unless told.
let addresses = 0;
const register = (
  email: string,
  password = 'attacker-password',
  remoteAddress = `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}`,
) => t.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress, payload: { name: 'Someone', email, password } });
const verify = (email: string, code: string, remoteAddress = '10.1.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/verify-email', remoteAddress, payload: { email, code } });
const userRow = (email: string) => t.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('registration claims nothing before the address is verified', () => {
  it('registering the email of a password-less guest record neither signs in nor claims it; its owner still can', async () => {
    const email = uniqueEmail('victim');
    const recordId = await guestForEmail(t.db, { name: 'Victim', email }, t.clock.now());
    const before = await userRow(email);

    const attack = await register(email, 'attacker-password', '10.1.0.2');
    expect(attack.statusCode).toBe(202);
    expect(attack.json()).toEqual({ verification_required: true });
    expect(attack.json().token).toBeUndefined();
    expect(await userRow(email)).toEqual(before);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'attacker-password' } });
    expect(login.statusCode).toBe(401);

    // The owner of the mailbox registers (the newest registration's code and password count) and gets the record.
    const { verify: owner } = await registerGuest(t, { name: 'Victim', email, password: 'owners-password' });
    expect(owner!.statusCode).toBe(201);
    expect(owner!.json().user).toMatchObject({ id: recordId, name: 'Victim', role: 'guest' });
    expect(owner!.json().token).toEqual(expect.any(String));
  });

  it('answers the same 202 for a new address, a guest record, a guest account and a portal user, creating no user', async () => {
    const fresh = uniqueEmail('fresh');
    const record = uniqueEmail('record');
    await guestForEmail(t.db, { name: 'Rec', email: record }, t.clock.now());
    const account = uniqueEmail('account');
    expect((await registerGuest(t, { name: 'Acc', email: account, password: 'long-enough-pw' })).verify!.statusCode).toBe(201);
    const answers = [];
    for (const email of [fresh, record, account]) {
      const res = await register(email);
      answers.push([res.statusCode, res.body]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([202, JSON.stringify({ verification_required: true })]);
    expect(await userRow(fresh)).toBeUndefined();
    expect((await mailsTo(t, fresh)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Your verification code: \d{6}$/)]);
    const reminder = (await mailsTo(t, account)).find((m) => m.subject === 'You already have an account');
    expect(reminder?.text_body).toMatch(/Sign in with your password/);
    expect(reminder?.text_body).not.toMatch(/\d{6}/);
  });

  it('keeps the code only hashed, for 15 minutes, for one use', async () => {
    const email = uniqueEmail('once');
    expect((await register(email, 'long-enough-pw')).statusCode).toBe(202);
    const code = await verificationCodeFor(t, email);
    const row = await t.db.kysely.selectFrom('email_verifications').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.password_hash).not.toContain('long-enough-pw');

    const first = await verify(email, code);
    expect(first.statusCode).toBe(201);
    const second = await verify(email, code);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual({ request_id: expect.any(String), error: 'Invalid or expired verification code' });

    const late = uniqueEmail('late');
    await register(late);
    const lateCode = await verificationCodeFor(t, late);
    t.clock.advance(15 * 60_000);
    expect((await verify(late, lateCode)).statusCode).toBe(400);
    expect(await userRow(late)).toBeUndefined();
  });

  it("each registration's code creates the account with its own password: a later registration cannot take the owner's", async () => {
    const email = uniqueEmail('again');
    await register(email, 'owners-password');
    const owners = await verificationCodeFor(t, email);
    await register(email, 'attacker-password');
    const attackers = await verificationCodeFor(t, email);
    expect(attackers).not.toBe(undefined);
    // The owner enters the code of their own registration.
    const verified = await verify(email, owners);
    expect(verified.statusCode).toBe(201);
    const signIn = (password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect((await signIn('owners-password')).statusCode).toBe(200);
    expect((await signIn('attacker-password')).statusCode).toBe(401);
    // The other pending registration went with it: its code creates nothing now.
    if (attackers !== owners) expect((await verify(email, attackers)).statusCode).toBe(400);
    expect(await t.db.kysely.selectFrom('email_verifications').select('id').where('email', '=', email).execute()).toEqual([]);
  });

  it('keeps at most 3 registrations of an address waiting, and mails one address at most 5 times an hour from any addresses', async () => {
    const email = uniqueEmail('flood');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await register(email)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect(await t.db.kysely.selectFrom('email_verifications').select('id').where('email', '=', email).execute()).toHaveLength(3);
    expect(await mailsTo(t, email)).toHaveLength(5);
  });

  it('allows 5 attempts per code: the right code after 5 wrong ones is refused', async () => {
    const email = uniqueEmail('guess');
    await register(email, 'long-enough-pw', '10.1.1.1');
    const code = await verificationCodeFor(t, email);
    for (let i = 0; i < 5; i++) expect((await verify(email, wrong(code), `10.1.1.${i + 2}`)).statusCode).toBe(400);
    expect((await verify(email, code, '10.1.1.9')).statusCode).toBe(400);
    expect(await userRow(email)).toBeUndefined();
  });

  it('counts wrong codes per email from any address (10 per 15 minutes: 429) and per client address', async () => {
    const email = uniqueEmail('limited');
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      await register(email, 'long-enough-pw', `10.2.${round}.1`);
      const code = await verificationCodeFor(t, email);
      for (let i = 0; i < 4; i++) statuses.push((await verify(email, wrong(code), `10.2.${round}.${i + 2}`)).statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);

    const statusesByIp: number[] = [];
    for (let i = 0; i < 11; i++) statusesByIp.push((await verify(uniqueEmail('nobody'), '123456', '10.3.0.1')).statusCode);
    expect(statusesByIp).toEqual([...Array(10).fill(400), 429]);
  });
});

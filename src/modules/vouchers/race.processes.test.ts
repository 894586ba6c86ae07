/**
 * Redemption across server instances: two `maitred serve` processes share one PostgreSQL database (the
 * production shape), and 20 redemptions of one code race through both at once. Exactly one succeeds;
 * then partial redemptions of another voucher race and never take its balance below zero.
 * PostgreSQL only: the embedded SQLite default is one instance by design.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { ENGINE } from '../../../test/helpers/db.js';
import { startServe, stopServes, type ServeProcess } from '../../../test/helpers/serve.js';

describe.runIf(ENGINE === 'postgres')('two server processes, one database', () => {
  let t: TestApp;
  let servers: ServeProcess[] = [];
  let venueId: string;
  let headers: Record<string, string>;
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-voucher-race-'));

  /** Calls a route of the venue through server `i % 2` as the operator. */
  const call = async (i: number, method: string, route: string, body?: object) => {
    const res = await fetch(`${servers[i % 2].base}/api/my-venues/${venueId}${route}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const op = await createOperator(t);
    venueId = await insertVenue(t, op.operatorId);
    // One after the other: the first start builds the compiled server if it is out of date.
    for (let i = 0; i < 2; i++)
      servers.push(await startServe({ DATABASE_URL: t.db.url, UPLOADS_DIR: uploads, RATE_LIMITS: 'voucher_redeem=1000/60' }));
    // Signed in through a server: the servers run on the real clock.
    const login = await fetch(`${servers[0].base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: op.email, password: op.password }),
    });
    headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  }, 120_000);

  afterAll(async () => {
    await stopServes(servers);
    servers = [];
    await t.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('20 concurrent redemptions of one code through both servers give exactly one success', async () => {
    const issued = await call(0, 'POST', '/vouchers', { amount_pence: 5000, mode: 'comp' });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i, 'POST', '/vouchers/redeem', { code: issued.body.code })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
    expect(answers.filter((a) => !a.body.success).map((a) => a.body.reason)).toEqual(Array(19).fill('already_redeemed'));
    const redemptions = await t.db.kysely.selectFrom('voucher_redemptions').selectAll().where('voucher_id', '=', issued.body.id).execute();
    expect(redemptions).toHaveLength(1);
  });

  it('concurrent partial redemptions through both servers never take the balance below zero', async () => {
    const issued = await call(1, 'POST', '/vouchers', { amount_pence: 1000 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i, 'POST', '/vouchers/redeem', { code: issued.body.code, amount_pence: 150 })),
    );
    expect(answers.filter((a) => a.body.success)).toHaveLength(6);
    expect(answers.filter((a) => !a.body.success).every((a) => a.body.reason === 'insufficient_balance')).toBe(true);
    const row = await t.db.kysely.selectFrom('vouchers').selectAll().where('id', '=', issued.body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ remaining_pence: 100, status: 'active' });
  });
});

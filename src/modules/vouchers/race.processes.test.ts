/**
 * Redemption across server instances: two `maitred serve` processes share one PostgreSQL database (the
 * production shape), and 20 redemptions of one code race through both at once. Exactly one succeeds;
 * then partial redemptions of another voucher race and never take its balance below zero.
 * PostgreSQL only: the embedded SQLite default is one instance by design.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { ENGINE } from '../../../test/helpers/db.js';
import { startCluster, type Cluster } from '../../../test/helpers/serve.js';

describe.runIf(ENGINE === 'postgres')('two server processes, one database', () => {
  let t: TestApp;
  let cluster: Cluster;
  let venueId: string;
  let headers: Record<string, string>;

  /** Calls a route of the venue through server `i % 2` as the operator. */
  const call = (i: number, method: string, route: string, body?: object) =>
    cluster.call(i, method, `/api/my-venues/${venueId}${route}`, body, headers);

  beforeAll(async () => {
    t = await createTestApp();
    const op = await createOperator(t);
    venueId = await insertVenue(t, op.operatorId);
    cluster = await startCluster(2, { DATABASE_URL: t.db.url, RATE_LIMITS: 'voucher_redeem=1000/60' });
    // Signed in through a server: the servers run on the real clock.
    headers = await cluster.signIn(op.email, op.password);
  }, 120_000);

  afterAll(async () => {
    await cluster.stop();
    await t.close();
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

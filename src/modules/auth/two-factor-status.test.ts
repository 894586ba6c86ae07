/** `GET /api/2fa`: whether the caller's sign-in asks for a code, as set-up, enabling and disabling change it. */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const status = (headers?: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/2fa', headers });
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });

describe('GET /api/2fa', () => {
  it('is off until a code confirms the set-up, and off again once disabled', async () => {
    const op = await createOperator(t);
    const first = await status(op.headers);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.json()).toEqual({ enabled: false });

    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
    // A set-up not yet confirmed does not turn it on.
    expect((await status(op.headers)).json()).toEqual({ enabled: false });

    const enabled = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/enable',
      headers: op.headers,
      payload: { code: await codeNow(secret) },
    });
    expect(enabled.statusCode).toBe(200);
    expect((await status(op.headers)).json()).toEqual({ enabled: true });

    t.clock.advance(30_000);
    const disabled = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/disable',
      headers: op.headers,
      payload: { code: await codeNow(secret) },
    });
    expect(disabled.statusCode).toBe(200);
    expect((await status(op.headers)).json()).toEqual({ enabled: false });
  });

  it("answers for the caller only: another user's two-factor does not show", async () => {
    const a = await createOperator(t);
    const b = await createOperator(t);
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: a.headers })).json();
    await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: a.headers, payload: { code: await codeNow(secret) } });
    t.clock.advance(30_000);
    expect((await status(a.headers)).json()).toEqual({ enabled: true });
    expect((await status(b.headers)).json()).toEqual({ enabled: false });
  });

  it('needs a session (401)', async () => {
    const res = await status();
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatch(/Session expired/);
    expect((await status({ authorization: 'Bearer nonsense' })).statusCode).toBe(401);
  });
});

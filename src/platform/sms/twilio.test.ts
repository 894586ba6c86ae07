/**
 * The Twilio adapter against a local fake of its REST API (request shape, Basic auth, retries with
 * back-off, a permanent refusal, one send per message across instances), and the inbound webhook's
 * signature check when Twilio is configured. Both engines.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { platformRetention, runRetention } from '../retention.js';
import { SMS_RETRY_FIRST_MS } from './sms.js';
import { twilioSignature } from './twilio.js';

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

let t: TestApp;
let server: http.Server;
const received: Received[] = [];
/** What the fake answers next (status codes), then 201. */
const answers: number[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({
        method: request.method!,
        url: request.url!,
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        form: Object.fromEntries(new URLSearchParams(body)),
      });
      const status = answers.shift() ?? 201;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(status < 300 ? { sid: `SM${received.length}`, status: 'queued' } : { code: 21211, message: 'Invalid To' }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    TWILIO_ACCOUNT_SID: 'AC123',
    TWILIO_AUTH_TOKEN: 'auth-token-secret',
    TWILIO_FROM: '+15005550006',
    TWILIO_API_BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
});

afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

const row = (to: string) => t.db.kysely.selectFrom('sms_outbox').selectAll().where('recipient', '=', to).executeTakeFirstOrThrow();

describe('the Twilio adapter', () => {
  it('posts the message form-encoded with Basic auth, once, however many flush', async () => {
    received.length = 0;
    await t.ctx.sms.queue(t.db, { to: '+44 7700 900001', body: 'Hello there', venueId: null, kind: 'test' });
    expect((await row('+447700900001')).status).toBe('pending');
    await Promise.all([t.ctx.sms.flush(), t.ctx.sms.flush()]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: '/2010-04-01/Accounts/AC123/Messages.json',
      authorization: `Basic ${Buffer.from('AC123:auth-token-secret').toString('base64')}`,
      contentType: 'application/x-www-form-urlencoded',
      form: { To: '+447700900001', From: '+15005550006', Body: 'Hello there' },
    });
    expect(await row('+447700900001')).toMatchObject({ status: 'sent', provider_id: 'SM1', attempts: 1 });
  });

  it('retries a failure after its back-off, and gives up at once on a permanent refusal', async () => {
    received.length = 0;
    answers.push(503);
    await t.ctx.sms.queue(t.db, { to: '+447700900002', body: 'Retry me', venueId: null, kind: 'test' });
    expect(await t.ctx.sms.flush()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    expect(await row('+447700900002')).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await t.ctx.sms.flush()).toEqual({ sent: 0, retrying: 0, failed: 0 }); // not due yet
    t.clock.advance(SMS_RETRY_FIRST_MS);
    expect(await t.ctx.sms.flush()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(received).toHaveLength(2);

    answers.push(400);
    await t.ctx.sms.queue(t.db, { to: '+447700900003', body: 'Bad number', venueId: null, kind: 'test' });
    expect(await t.ctx.sms.flush()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect((await row('+447700900003')).last_error).toMatch(/400/);
  });
});

describe('the inbound webhook with Twilio configured', () => {
  const url = 'http://maitred.test/api/public/sms/inbound';
  const form = { From: '+447700900009', Body: 'STOP', MessageSid: 'SM9', AccountSid: 'AC123' };
  const post = (signature?: string, params: Record<string, string> = form) =>
    t.app.inject({
      method: 'POST',
      url: '/api/public/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
      payload: new URLSearchParams(params).toString(),
    });

  it('refuses a missing or wrong signature and records nothing', async () => {
    expect((await post()).statusCode).toBe(403);
    expect((await post(twilioSignature('wrong-token', url, form))).statusCode).toBe(403);
    expect((await post(twilioSignature('auth-token-secret', url, { ...form, Body: 'START' }))).statusCode).toBe(403);
    expect(await t.db.kysely.selectFrom('sms_opt_outs').selectAll().execute()).toEqual([]);
  });

  it('records STOP with a valid signature, and no longer sends to the number', async () => {
    const res = await post(twilioSignature('auth-token-secret', url, form));
    expect(res.json()).toEqual({ success: true, opted_out: true });
    received.length = 0;
    await t.ctx.sms.queue(t.db, { to: '+447700900009', body: 'Reminder', venueId: null, kind: 'reminder' });
    await t.ctx.sms.flush();
    expect(received).toEqual([]);
    expect((await row('+447700900009')).status).toBe('opted_out');
  });
});

describe('retention', () => {
  it('deletes finished text messages after the mail retention period, and keeps what is still due', async () => {
    await t.ctx.sms.queue(t.db, { to: '+447700900099', body: 'Old', venueId: null, kind: 'test' });
    await t.ctx.sms.flush();
    await t.ctx.sms.queue(t.db, { to: '+447700900098', body: 'Waiting', venueId: null, kind: 'test' });
    await t.db.kysely
      .updateTable('sms_outbox')
      .set({ next_attempt_at: '2099-01-01T00:00:00.000Z' })
      .where('recipient', '=', '+447700900098')
      .execute();
    const later = new Date(t.clock.now().getTime() + 31 * 86_400_000);
    const deleted = await runRetention(platformRetention(t.db, t.config.retention), later, pino({ level: 'silent' }));
    expect(deleted['finished text messages']).toBeGreaterThanOrEqual(1);
    const left = (await t.db.kysely.selectFrom('sms_outbox').select('recipient').execute()).map((r) => r.recipient);
    expect(left).not.toContain('+447700900099');
    expect(left).toContain('+447700900098');
  });
});

/**
 * Outgoing mail against a local SMTP server: what arrives (headers, bodies, attachment), queueing in the
 * caller's transaction (nothing for a rollback, nothing before the commit), delivery right after the
 * commit once the worker runs, retries while the server is down, permanent refusals, giving up, two
 * workers on one database, lapsed claims, input hygiene and retention.
 */
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/helpers/app.js';
import { createMail, MAIL_CLAIM_MS, MAIL_MAX_ATTEMPTS, MAIL_RETENTION_MS, MAIL_RETRY_MAX_MS, type MailMessage } from './mail.js';
import { createTestSmtp, parseMail, type TestSmtp } from './smtp.test-helpers.js';
import { venueMessage } from './templates.js';

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Dinner at The Night Owl\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
const NO_DELIVERY = { sent: 0, retrying: 0, failed: 0 };

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await createTestSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Maitred Bookings <bookings@maitred.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('mail_outbox').execute();
  smtp.received.length = 0;
  t.clock.set(TEST_NOW);
});

/** Another mail service on the test database (another instance, or another configuration). */
function mailer(options: { smtpUrl: string | undefined; mailFrom?: string; db?: Db }) {
  return createMail({
    db: options.db ?? t.db,
    clock: t.clock,
    log: pino({ level: 'silent' }),
    config: { ...t.config, smtpUrl: options.smtpUrl, mailFrom: options.mailFrom ?? t.config.mailFrom },
  });
}

const row = (id: string) => t.db.kysely.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const later = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

function message(to = 'ann@example.com', subject = 'Booking confirmed'): MailMessage {
  return venueMessage({
    to,
    subject,
    venue: { name: 'The Night Owl', email: 'hello@nightowl.example' },
    content: { paragraphs: ['Your table for 4 <b>is</b> booked & waiting.'], details: [{ label: 'Time', value: '19:30' }] },
    attachments: [{ filename: 'booking.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: ICS }],
  });
}

describe('delivery over SMTP', () => {
  it('delivers subject, recipient, the venue as sender, text, HTML and the calendar attachment', async () => {
    const id = await t.ctx.mail.queue(t.db, message());
    expect(t.ctx.mail.delivering).toBe(true);
    expect(await t.ctx.mail.flush()).toEqual({ sent: 1, retrying: 0, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    const [received] = smtp.received;
    expect(received.envelopeFrom).toBe('bookings@maitred.test');
    expect(received.envelopeTo).toEqual(['ann@example.com']);
    const mail = parseMail(received.raw);
    expect(mail.headers.get('from')).toMatch(/^"?The Night Owl"? <bookings@maitred\.test>$/);
    expect(mail.headers.get('to')).toBe('ann@example.com');
    expect(mail.headers.get('reply-to')).toBe('hello@nightowl.example');
    expect(mail.headers.get('subject')).toBe('Booking confirmed');
    expect(mail.headers.get('message-id')).toBe(`<${id}@maitred.test>`);
    expect(mail.text).toContain('Your table for 4 <b>is</b> booked & waiting.');
    expect(mail.text).toContain('Time: 19:30');
    expect(mail.text).toContain('— The Night Owl');
    expect(mail.html).toContain('Your table for 4 &lt;b&gt;is&lt;/b&gt; booked &amp; waiting.');
    expect(mail.attachments).toEqual([{ filename: 'booking.ics', contentType: expect.stringMatching(/^text\/calendar/), content: ICS }]);

    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, sent_at: TEST_NOW, last_error: null });
    expect(await t.ctx.mail.flush()).toEqual(NO_DELIVERY);
    expect(smtp.received).toHaveLength(1);
  });

  it("sends under MAIL_FROM's own name when the message names no sender", async () => {
    await t.ctx.mail.queue(t.db, { to: 'ops@example.com', subject: 'Payout sent', text: 'Done.' });
    await t.ctx.mail.flush();
    const mail = parseMail(smtp.received[0].raw);
    expect(mail.headers.get('from')).toMatch(/^"?Maitred Bookings"? <bookings@maitred\.test>$/);
    expect(mail.headers.has('reply-to')).toBe(false);
    expect(mail.text).toBe('Done.');
    expect(mail.html).toBeUndefined();
  });
});

describe('queueing in the caller transaction', () => {
  it('queues and sends nothing for a change that rolls back', async () => {
    await expect(
      withTransaction(t.db, async (trx) => {
        await t.ctx.mail.queue(trx, message());
        throw new Error('booking failed');
      }),
    ).rejects.toThrow('booking failed');
    expect(await t.ctx.mail.list()).toEqual([]);
    expect(await t.ctx.mail.flush()).toEqual(NO_DELIVERY);
    expect(smtp.received).toHaveLength(0);
  });

  it('is invisible to every worker until the transaction commits', async () => {
    const otherDb = openDatabase(t.db.url);
    try {
      const other = mailer({ smtpUrl: smtp.url, db: otherDb });
      let commit!: () => void;
      let queued!: () => void;
      const wasQueued = new Promise<void>((resolve) => (queued = resolve));
      const transaction = withTransaction(t.db, async (trx) => {
        await t.ctx.mail.queue(trx, message());
        queued();
        await new Promise<void>((resolve) => (commit = resolve));
      });
      await wasQueued;
      expect(await other.flush()).toEqual(NO_DELIVERY);
      commit();
      await transaction;
      expect(await other.flush()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
    } finally {
      await otherDb.close();
    }
  });

  it('once the worker runs, delivers right after the commit (and after a plain insert) without waiting for its poll', async () => {
    t.ctx.mail.start();
    try {
      await withTransaction(t.db, async (trx) => {
        await t.ctx.mail.queue(trx, message('first@example.com'));
      });
      await smtp.waitFor(1);
      await t.ctx.mail.queue(t.db, message('second@example.com'));
      await smtp.waitFor(2);
    } finally {
      await t.ctx.mail.stop();
    }
    expect(smtp.received.map((m) => m.envelopeTo[0])).toEqual(['first@example.com', 'second@example.com']);
    expect((await t.ctx.mail.list()).map((e) => e.status)).toEqual(['sent', 'sent']);
  });
});

describe('failures and retries', () => {
  it('keeps mail while the SMTP server is down and delivers it once when it is back', async () => {
    const flaky = await createTestSmtp({ started: false });
    const mail = mailer({ smtpUrl: flaky.url });
    try {
      const id = await mail.queue(t.db, message());
      expect(await mail.flush()).toEqual({ sent: 0, retrying: 1, failed: 0 });
      expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: later(30_000), sent_at: null });
      expect((await row(id)).last_error).toMatch(/ECONNREFUSED/);
      expect(await mail.flush()).toEqual(NO_DELIVERY); // not due yet

      t.clock.advance(30_000);
      expect(await mail.flush()).toEqual({ sent: 0, retrying: 1, failed: 0 });
      expect(await row(id)).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: later(60_000) });

      await flaky.start();
      t.clock.advance(59_999);
      expect(await mail.flush()).toEqual(NO_DELIVERY);
      t.clock.advance(1);
      expect(await mail.flush()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(await row(id)).toMatchObject({ status: 'sent', attempts: 3, last_error: null, sent_at: t.clock.now().toISOString() });

      t.clock.advance(MAIL_RETRY_MAX_MS);
      expect(await mail.flush()).toEqual(NO_DELIVERY);
      expect(flaky.received).toHaveLength(1);
      expect(parseMail(flaky.received[0].raw).headers.get('subject')).toBe('Booking confirmed');
    } finally {
      await flaky.stop();
    }
  });

  it(`gives up after ${MAIL_MAX_ATTEMPTS} attempts and keeps the row as failed`, async () => {
    const dead = await createTestSmtp({ started: false });
    const mail = mailer({ smtpUrl: dead.url });
    const id = await mail.queue(t.db, message());
    for (let attempt = 1; attempt < MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await mail.flush()).toEqual({ sent: 0, retrying: 1, failed: 0 });
      t.clock.advance(MAIL_RETRY_MAX_MS);
    }
    expect(await mail.flush()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS, sent_at: null });
    t.clock.advance(MAIL_RETRY_MAX_MS);
    expect(await mail.flush()).toEqual(NO_DELIVERY);
  });

  it('fails a recipient the server refuses permanently at once, and still delivers the others', async () => {
    const strict = await createTestSmtp({ refuse: ['nobody@example.com'] });
    const mail = mailer({ smtpUrl: strict.url });
    try {
      const refused = await mail.queue(t.db, message('nobody@example.com'));
      const fine = await mail.queue(t.db, message('ann@example.com'));
      expect(await mail.flush()).toEqual({ sent: 1, retrying: 0, failed: 1 });
      expect(await row(refused)).toMatchObject({ status: 'failed', attempts: 1 });
      expect((await row(refused)).last_error).toMatch(/550/);
      expect(await row(fine)).toMatchObject({ status: 'sent' });
      t.clock.advance(MAIL_RETRY_MAX_MS);
      expect(await mail.flush()).toEqual(NO_DELIVERY);
      expect(strict.received.map((m) => m.envelopeTo)).toEqual([['ann@example.com']]);
    } finally {
      await strict.stop();
    }
  });

  it('takes over a claim whose worker died once the claim lapses', async () => {
    const id = await t.ctx.mail.queue(t.db, message());
    await t.db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'sending', attempts: 1, next_attempt_at: later(MAIL_CLAIM_MS) })
      .where('id', '=', id)
      .execute();
    expect(await t.ctx.mail.flush()).toEqual(NO_DELIVERY);
    t.clock.advance(MAIL_CLAIM_MS);
    expect(await t.ctx.mail.flush()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('several instances', () => {
  it('two workers on one database racing over the same mail send each message once', async () => {
    const slow = await createTestSmtp({ delayMs: 15 });
    const otherDb = openDatabase(t.db.url);
    try {
      const a = mailer({ smtpUrl: slow.url });
      const b = mailer({ smtpUrl: slow.url, db: otherDb });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await a.queue(t.db, message(`guest${i}@example.com`, `Message ${i}`)));
      const [ra, rb] = await Promise.all([a.flush(), b.flush()]);
      expect(ra.sent + rb.sent).toBe(12);
      expect(ra.retrying + rb.retrying + ra.failed + rb.failed).toBe(0);
      expect(slow.received).toHaveLength(12);
      expect(new Set(slow.received.map((m) => parseMail(m.raw).headers.get('message-id'))).size).toBe(12);
      const rows = await t.db.kysely.selectFrom('mail_outbox').select(['status', 'attempts']).execute();
      expect(rows).toEqual(ids.map(() => ({ status: 'sent', attempts: 1 })));
    } finally {
      await otherDb.close();
      await slow.stop();
    }
  });
});

describe('without SMTP_URL', () => {
  it('keeps mail in the outbox, never sends it, and lists it', async () => {
    const mail = mailer({ smtpUrl: undefined });
    expect(mail.delivering).toBe(false);
    const id = await mail.queue(t.db, message());
    expect(await mail.flush()).toEqual(NO_DELIVERY);
    expect(await row(id)).toMatchObject({ status: 'kept', attempts: 0, sent_at: null });
    expect(await mail.list()).toEqual([
      expect.objectContaining({
        id,
        to: 'ann@example.com',
        subject: 'Booking confirmed',
        status: 'kept',
        created_at: TEST_NOW,
        sent_at: null,
      }),
    ]);
    // A later instance with SMTP does not send mail queued without it.
    expect(await t.ctx.mail.flush()).toEqual(NO_DELIVERY);
    expect(smtp.received).toHaveLength(0);
  });
});

describe('input hygiene', () => {
  it('refuses invalid recipient and reply-to addresses with a 400', async () => {
    for (const to of ['not-an-email', 'a@example.com\r\nBcc: evil@example.com', 'a@example.com, b@example.com', '']) {
      await expect(t.ctx.mail.queue(t.db, { to, subject: 'S', text: 'T' })).rejects.toMatchObject({
        status: 400,
        message: 'Recipient is not a valid email address',
      });
    }
    await expect(t.ctx.mail.queue(t.db, { to: 'a@example.com', subject: 'S', text: 'T', replyTo: 'nope' })).rejects.toMatchObject({
      status: 400,
      message: 'Reply-To is not a valid email address',
    });
    expect(await t.ctx.mail.list()).toEqual([]);
  });

  it('keeps the subject and sender name on one line, so they cannot add headers', async () => {
    await t.ctx.mail.queue(t.db, {
      to: 'ann@example.com',
      subject: 'Hello\r\nBcc: evil@example.com',
      text: 'T',
      senderName: 'Owl\r\nBcc: evil@example.com',
    });
    await t.ctx.mail.flush();
    expect(smtp.received[0].envelopeTo).toEqual(['ann@example.com']);
    const mail = parseMail(smtp.received[0].raw);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.get('subject')).toBe('Hello Bcc: evil@example.com');
    expect(mail.headers.get('from')).toContain('bookings@maitred.test');
  });

  it('refuses attachments with a path or a malformed content type', async () => {
    const bad = (filename: string, contentType: string) =>
      t.ctx.mail.queue(t.db, { to: 'a@example.com', subject: 'S', text: 'T', attachments: [{ filename, contentType, content: 'x' }] });
    await expect(bad('../booking.ics', 'text/calendar')).rejects.toThrow(/filename/);
    await expect(bad('booking.ics', 'text/calendar\r\nX-Evil: 1')).rejects.toThrow(/content type/);
    await expect(bad('booking.ics', 'calendar')).rejects.toThrow(/content type/);
  });

  it('refuses a MAIL_FROM without one address at start', () => {
    expect(() => mailer({ smtpUrl: undefined, mailFrom: 'Maitred' })).toThrow(/MAIL_FROM/);
    expect(() => mailer({ smtpUrl: undefined, mailFrom: 'a@example.com, b@example.com' })).toThrow(/MAIL_FROM/);
    expect(() => mailer({ smtpUrl: undefined, mailFrom: 'no-reply@example.com' })).not.toThrow();
  });
});

describe('retention', () => {
  it('deletes sent, failed and kept mail after 30 days but never mail still to be sent', async () => {
    const sent = await t.ctx.mail.queue(t.db, message('sent@example.com'));
    await t.ctx.mail.flush();
    const kept = await mailer({ smtpUrl: undefined }).queue(t.db, message('kept@example.com'));
    const pending = await t.ctx.mail.queue(t.db, message('pending@example.com'));
    const failed = await t.ctx.mail.queue(t.db, message('failed@example.com'));
    await t.db.kysely.updateTable('mail_outbox').set({ status: 'failed' }).where('id', '=', failed).execute();

    t.clock.advance(MAIL_RETENTION_MS);
    expect(await t.ctx.mail.prune()).toBe(0);
    t.clock.advance(1);
    expect(await t.ctx.mail.prune()).toBe(3);
    const left = await t.db.kysely.selectFrom('mail_outbox').select('id').execute();
    expect(left.map((r) => r.id)).toEqual([pending]);
    expect([sent, kept, failed]).not.toContain(pending);
  });
});

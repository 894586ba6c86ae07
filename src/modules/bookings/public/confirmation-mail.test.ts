/**
 * The public booking's confirmation is queued small in the booking's transaction and rendered when sent
 * (core/booking-mail.ts, docs/decisions.md "Booking confirmations rendered when sent"): the same mail as
 * one rendered in the transaction, the booking as booked even if it changed since, nothing sent (once,
 * never retried) when the guest was erased first, and the CLI's listing renders it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, createOperator, insertVenue, type TestApp, type TestOperator } from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { runCli } from '../../../cli.js';
import { createSecretBox } from '../../../platform/secret-box.js';
import { storedColumns } from '../../../platform/mail/mail.js';
import { createTestSmtp, parseMail, type TestSmtp } from '../../../platform/mail/smtp.test-helpers.js';
import { findVenue } from '../../venues/index.js';
import { bookingMails, CONFIRMATION_TEMPLATE } from '../core/booking-mail.js';
import { findBooking } from '../core/booking-store.js';
import { insertTable } from '../core/bookings.test-support.js';
import { createDoorKeys } from '../core/door-keys.js';
import { anonymiseGuestBookings } from '../core/guest-reads.js';

let t: TestApp;
let smtp: TestSmtp;
let op: TestOperator;
let venueId: string;
let ruleId: string;
const FRIDAY = '2026-06-19';
let n = 0;

const outboxRow = (to: string) => t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', to).executeTakeFirstOrThrow();

async function book(time: string) {
  const email = `confirm${++n}@example.test`;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    payload: {
      access_rule_id: ruleId,
      rule_type: 'table',
      date: FRIDAY,
      time,
      party_size: 2,
      guest_name: `Guest ${n}`,
      guest_email: email,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { email, bookingId: res.json().booking_id as string, manageUrl: res.json().manage_url as string };
}

beforeAll(async () => {
  smtp = await createTestSmtp();
  t = await createTestApp({
    RATE_LIMITS: 'public_booking=1000/60',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Maitred Bookings <bookings@maitred.test>',
  });
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '12:00', time_to: '23:00' });
  ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
  for (let i = 1; i <= 6; i++) await insertTable(t, venueId, { table_number: String(i), capacity: 4 });
});

afterAll(async () => {
  await t.close();
  await smtp.stop();
});

beforeEach(async () => {
  // Each test's rows only: what earlier tests left is delivered (or given up) first.
  await t.ctx.mail.flush();
  smtp.received.length = 0;
});

describe('the public booking confirmation, rendered when sent', () => {
  it('is a small row in the booking transaction, sent after commit as the mail rendered in the transaction would be', async () => {
    const { email, bookingId, manageUrl } = await book('18:00');
    const row = await outboxRow(email);
    expect(row).toMatchObject({ template: CONFIRMATION_TEMPLATE, text_body: '', html_body: null, attachments: '[]', status: 'pending' });
    expect(row.subject).toBe('Your booking at Test Venue on Friday, 19 June 2026 is confirmed');
    expect(JSON.parse(row.template_data!)).toMatchObject({ id: bookingId, booking_date: FRIDAY, start_time: '18:00', guest_count: 2 });
    expect(row.template_data!.length).toBeLessThan(400);

    // What the same booking's confirmation rendered in the transaction holds (the form other flows still queue).
    const mails = bookingMails({
      mail: t.ctx.mail,
      doorKeys: createDoorKeys({
        db: t.db,
        clock: t.clock,
        secrets: createSecretBox({ db: t.db, clock: t.clock, configuredKey: undefined }),
      }),
      publicBaseUrl: 'http://maitred.test',
    });
    const booking = (await findBooking(t.db, bookingId))!;
    const venue = (await findVenue(t.db, op.operatorId, venueId))!;
    const inTransaction = await mails.confirmationMessage(t.db, venue, booking, await mails.manageUrl(t.db, booking));
    const rendered = await t.ctx.mail.render(row);
    expect('skip' in rendered).toBe(false);
    expect(storedColumns(rendered as typeof inTransaction)).toEqual(storedColumns(inTransaction));
    expect(inTransaction.text).toContain(manageUrl);

    expect(await t.ctx.mail.flush()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect((await outboxRow(email)).status).toBe('sent');
    const sent = parseMail(smtp.received[0].raw);
    expect(sent.headers.get('subject')).toBe(row.subject);
    expect(sent.headers.get('reply-to')).toBe('hello@venue.test');
    expect(sent.text).toContain(`View or cancel your booking: ${manageUrl}`);
    expect(sent.html).toContain('Booking reference');
    expect(sent.attachments).toHaveLength(1);
    expect(sent.attachments[0].content).toContain('DTSTART:20260619T170000Z');
  });

  it('a booking moved and cancelled before the mail is sent still gets the confirmation of what was booked', async () => {
    const { email, bookingId, manageUrl } = await book('19:00');
    const before = await t.ctx.mail.render(await outboxRow(email));
    await t.db.kysely
      .updateTable('bookings')
      .set({
        start_time: '21:00',
        starts_at: '2026-06-19T20:00:00.000Z',
        ends_at: '2026-06-19T22:00:00.000Z',
        guest_count: 4,
        status: 'cancelled',
        updated_at: '2026-06-10T09:00:00.000Z',
      })
      .where('id', '=', bookingId)
      .execute();
    const after = await t.ctx.mail.render(await outboxRow(email));
    expect(after).toEqual(before);
    if ('skip' in after) throw new Error('not rendered');
    expect(after.text).toContain('Time: 19:00');
    expect(after.text).toContain('Party size: 2');
    expect(after.text).toContain(manageUrl);
    expect(after.attachments?.[0].content).toContain('DTSTART:20260619T180000Z');
  });

  it('is not sent when the guest was erased first: failed once with the reason, never retried', async () => {
    const { email, bookingId } = await book('20:00');
    const booking = (await findBooking(t.db, bookingId))!;
    await anonymiseGuestBookings(t.db, op.operatorId, booking.user_id!, t.clock.now());
    expect(await t.ctx.mail.flush()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    const row = await outboxRow(email);
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(/^not sent: .*erased/);
    expect(smtp.received).toHaveLength(0);
    t.clock.advance(24 * 60 * 60_000);
    expect(await t.ctx.mail.flush()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    const listed = (await t.ctx.mail.list({ limit: 50 })).find((m) => m.to === email)!;
    expect(listed.text).toMatch(/^\(nothing to send: .*erased/);
  });

  it('is not queued by a booking transaction that rolls back', async () => {
    const email = 'rolled-back@example.test';
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await t.ctx.mail.defer(trx, { to: email, subject: 'S', template: CONFIRMATION_TEMPLATE, data: { id: 'bkg_none' } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await t.db.kysely.selectFrom('mail_outbox').select('id').where('recipient', '=', email).execute()).toEqual([]);
    await expect(t.ctx.mail.defer(t.db, { to: email, subject: 'S', template: 'no.such.template', data: {} })).rejects.toThrow(
      /not registered/,
    );
  });

  it('maitred outbox shows it rendered', async () => {
    const { email, manageUrl } = await book('21:00');
    const res = await runCli(['outbox', '--limit', '1'], {
      env: { ...process.env, DATABASE_URL: t.db.url, PUBLIC_BASE_URL: 'http://maitred.test', LOG_LEVEL: 'silent' },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`to ${email}`);
    expect(res.stdout).toContain('Subject: Your booking at Test Venue on Friday, 19 June 2026 is confirmed');
    expect(res.stdout).toContain(`View or cancel your booking: ${manageUrl}`);
  });
});

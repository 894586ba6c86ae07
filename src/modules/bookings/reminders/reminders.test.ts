/**
 * Booking reminders over HTTP on both engines: the settings and template routes (validation, 403, 404),
 * the pass sent exactly once across two instances on one database and across a restart, never for a
 * booking cancelled meanwhile, moved or skipped in quiet hours, SMS only with consent and never after
 * STOP, and the confirm / cancel links (refused when forged or replayed).
 */
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../cli.js';
import { createContext } from '../../../context.js';
import { signManageToken } from '../../../domain/booking-tokens/index.js';
import { bearer, createOperator, createStaff, insertVenue, login, TEST_NOW } from '../../../../test/helpers/app.js';
import {
  FRIDAY,
  FRIDAY_19_UTC,
  bookingRow,
  guest,
  op,
  policyVenue,
  signedToken,
  t,
  useManageApp,
  type PolicyVenue,
} from '../manage/manage.test-support.js';

useManageApp();

// Staff sessions were last used at the later times the tests move the clock to: sign in again at the start.
beforeEach(async () => {
  t.clock.set(TEST_NOW);
  op.headers = bearer(await login(t, op.email));
});

let phones = 0;
const phone = () => `+4477009${String(100000 + ++phones).slice(-5)}`;

const settingsUrl = (venueId: string) => `/api/my-venues/${venueId}/reminder-settings`;
const ON = {
  enabled: true,
  offsets_minutes: [1440, 120],
  channels: ['mail', 'sms'],
  quiet_hours: { start: '22:00', end: '08:00' },
  quiet_mode: 'shift',
};

async function enable(venueId: string, settings: Record<string, unknown> = {}) {
  const res = await t.app.inject({ method: 'PUT', url: settingsUrl(venueId), headers: op.headers, payload: { ...ON, ...settings } });
  expect(res.statusCode, res.body).toBe(200);
}

async function bookWith(v: PolicyVenue, extra: Record<string, unknown> = {}) {
  const who = guest();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${v.venueId}/book`,
    payload: { access_rule_id: v.ruleId, rule_type: 'table', date: FRIDAY, time: '19:00', party_size: 2, ...who, ...extra },
  });
  expect(res.json(), res.body).toMatchObject({ ok: true, status: 'confirmed' });
  return { bookingId: res.json().booking_id as string, email: who.guest_email };
}

const reminderMails = (email: string) =>
  t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).where('subject', 'like', 'Reminder:%').execute();
const texts = (to: string) => t.db.kysely.selectFrom('sms_outbox').selectAll().where('recipient', '=', to).orderBy('created_at').execute();
const reminderTexts = async (to: string) => (await texts(to)).filter((text) => text.kind === 'reminder');

/** Another server on the same database: its own services, sharing nothing in memory with `t`. */
function otherInstance() {
  return createContext(t.config, t.db, { clock: t.clock, log: pino({ level: 'silent' }), rateLimitNamespace: `other-${Math.random()}` });
}

function linkOf(text: string, label: RegExp): string {
  const match = new RegExp(`${label.source}[^\\n]*?(http://maitred\\.test/booking-reminder\\?token=[A-Za-z0-9._~%-]+)`).exec(text);
  if (!match) throw new Error(`no ${label.source} link in ${text}`);
  return decodeURIComponent(new URL(match[1]).searchParams.get('token')!);
}
const act = (token: string) => t.app.inject({ method: 'POST', url: '/api/public/bookings/reminder', payload: { token } });

describe('reminder settings and templates', () => {
  it('answers the defaults, saves and reads back, and refuses bad settings without changing anything', async () => {
    const v = await policyVenue();
    const first = await t.app.inject({ url: settingsUrl(v.venueId), headers: op.headers });
    expect(first.json()).toMatchObject({ enabled: false, offsets_minutes: [1440, 120], channels: ['mail', 'sms'], quiet_mode: 'shift' });
    await enable(v.venueId, { offsets_minutes: [60, 2880], channels: ['sms'], quiet_hours: null, quiet_mode: 'skip' });
    const saved = (await t.app.inject({ url: settingsUrl(v.venueId), headers: op.headers })).json();
    expect(saved).toMatchObject({ enabled: true, offsets_minutes: [2880, 60], channels: ['sms'], quiet_hours: null, quiet_mode: 'skip' });
    for (const bad of [
      { offsets_minutes: [120, 120] },
      { offsets_minutes: [5] },
      { offsets_minutes: [] },
      { channels: ['mail', 'mail'] },
      { channels: ['fax'] },
      { quiet_hours: { start: '22:00', end: '22:00' } },
      { quiet_hours: { start: '25:00', end: '08:00' } },
      { quiet_mode: 'later' },
    ]) {
      const res = await t.app.inject({ method: 'PUT', url: settingsUrl(v.venueId), headers: op.headers, payload: { ...ON, ...bad } });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.app.inject({ url: settingsUrl(v.venueId), headers: op.headers })).json()).toEqual(saved);
  });

  it('needs venues.settings (read for GET), and another operator’s venue is not found', async () => {
    const v = await policyVenue();
    const reader = await createStaff(t, op, { 'venues.settings': 'read' });
    const none = await createStaff(t, op, { tables: 'write' });
    const other = await createOperator(t, 'Other');
    const theirs = await insertVenue(t, other.operatorId);
    expect((await t.app.inject({ url: settingsUrl(v.venueId) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: settingsUrl(v.venueId), headers: reader.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: settingsUrl(v.venueId), headers: reader.headers, payload: ON })).statusCode).toBe(403);
    expect((await t.app.inject({ url: settingsUrl(v.venueId), headers: none.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/my-venues/${v.venueId}/message-templates`, headers: none.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: settingsUrl(theirs), headers: op.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: settingsUrl(theirs), headers: op.headers, payload: ON })).statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/my-venues/${theirs}/message-templates/reminder`,
      headers: op.headers,
      payload: { body: 'Hi {guest_name}' },
    });
    expect(put.statusCode).toBe(404);
  });

  it('lists the templates, saves a valid one, refuses unknown placeholders and lone braces, and resets to the default', async () => {
    const v = await policyVenue();
    const url = `/api/my-venues/${v.venueId}/message-templates`;
    const list = (await t.app.inject({ url, headers: op.headers })).json().data;
    expect(list.map((x: { kind: string }) => x.kind)).toEqual(['confirmation', 'reminder', 'cancellation', 'waitlist_ready']);
    expect(list[1]).toMatchObject({ custom: false, placeholders: expect.arrayContaining(['confirm_url', 'cancel_url']) });
    const put = (body: unknown, kind = 'reminder') =>
      t.app.inject({ method: 'PUT', url: `${url}/${kind}`, headers: op.headers, payload: { body } });
    const ok = await put('{guest_name}: {venue_name} at {time} {{ok}}. Yes: {confirm_url}');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      kind: 'reminder',
      custom: true,
      body: '{guest_name}: {venue_name} at {time} {{ok}}. Yes: {confirm_url}',
    });
    const unknown = await put('Hi {guest}');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/\{guest\}/);
    expect((await put('Table ready {confirm_url}', 'waitlist_ready')).statusCode).toBe(400);
    expect((await put('Hi {guest_name')).statusCode).toBe(400);
    expect((await put('Hi }')).statusCode).toBe(400);
    expect((await put('   ')).statusCode).toBe(400);
    expect((await put('x'.repeat(481))).statusCode).toBe(400);
    expect((await put('Hi', 'birthday')).statusCode).toBe(404);
    expect((await t.app.inject({ url, headers: op.headers })).json().data[1].body).toBe(
      '{guest_name}: {venue_name} at {time} {{ok}}. Yes: {confirm_url}',
    );
    expect((await put(null)).json()).toMatchObject({ custom: false });
  });

  it('refuses SMS consent without a number it can text', async () => {
    const v = await policyVenue();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${v.venueId}/book`,
      payload: {
        access_rule_id: v.ruleId,
        rule_type: 'table',
        date: FRIDAY,
        time: '19:00',
        party_size: 2,
        ...guest(),
        guest_phone: '07700 900123',
        sms_consent: true,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(await t.db.kysely.selectFrom('bookings').select('id').where('venue_id', '=', v.venueId).execute()).toEqual([]);
  });
});

describe('the reminder pass', () => {
  it('sends each reminder once across two instances and a restart, by mail and (with consent) SMS', async () => {
    const v = await policyVenue();
    await enable(v.venueId);
    const to = phone();
    const { bookingId, email } = await bookWith(v, { guest_phone: to, sms_consent: true });
    // The booking's own confirmation text, in the venue's wording, with the manage link.
    const confirmation = await texts(to);
    expect(confirmation).toMatchObject([{ kind: 'confirmation', status: 'kept' }]);
    expect(confirmation[0].body).toMatch(
      /^Hi Guest \d+, your booking at Test Venue on .* is confirmed\. Manage it: http:\/\/maitred\.test\/widget\/manage\?token=/,
    );
    const other = otherInstance();

    t.clock.set('2026-06-18T17:59:00.000Z'); // a minute before the 24 h reminder
    expect(await t.ctx.reminders.runDue()).toEqual({ sent: 0, skipped: 0 });
    t.clock.set('2026-06-18T18:00:00.000Z');
    const [a, b] = await Promise.all([t.ctx.reminders.runDue(), other.reminders.runDue()]);
    expect(a.sent + b.sent).toBe(1);
    expect(await reminderMails(email)).toHaveLength(1);
    const sms = await reminderTexts(to);
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ kind: 'reminder', status: 'kept' });
    expect(sms[0].body).toMatch(/Confirm: http:\/\/maitred\.test\/booking-reminder\?token=/);
    // `maitred outbox --sms` lists it (the simulated provider keeps it).
    const cli = await runCli(['outbox', '--sms', '--json', '--limit', '1000'], { env: { DATABASE_URL: t.db.url } });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).data).toContainEqual(expect.objectContaining({ to, kind: 'reminder', status: 'kept' }));
    const human = await runCli(['outbox', '--sms'], { env: { DATABASE_URL: t.db.url } });
    expect(human.stdout).toContain(`SMS to ${to}  (reminder)  [kept (simulated provider: not sent)]`);

    // A restarted server (new services, same database) sends nothing again.
    t.clock.set('2026-06-18T20:00:00.000Z');
    const restarted = otherInstance();
    expect((await restarted.reminders.runDue()).sent).toBe(0);
    expect(await reminderMails(email)).toHaveLength(1);

    // The 2 h reminder, once more exactly once.
    t.clock.set('2026-06-19T16:00:00.000Z');
    const [c, d] = await Promise.all([restarted.reminders.runDue(), other.reminders.runDue(), t.ctx.reminders.runDue()]);
    expect(c.sent + d.sent).toBeLessThanOrEqual(1);
    expect(await reminderMails(email)).toHaveLength(2);
    expect(await reminderTexts(to)).toHaveLength(2);
    const rows = await t.db.kysely
      .selectFrom('booking_reminders')
      .selectAll()
      .where('booking_id', '=', bookingId)
      .orderBy('offset_minutes')
      .execute();
    expect(rows.map((r) => [Number(r.offset_minutes), r.status])).toEqual([
      [120, 'sent'],
      [1440, 'sent'],
    ]);
  });

  it('sends nothing for a booking cancelled meanwhile', async () => {
    const v = await policyVenue();
    await enable(v.venueId);
    const { bookingId, email } = await bookWith(v);
    const cancel = await t.app.inject({ method: 'POST', url: `/api/bookings/${bookingId}/staff-cancel`, headers: op.headers, payload: {} });
    expect(cancel.statusCode, cancel.body).toBe(200);
    t.clock.set('2026-06-18T18:00:00.000Z');
    await t.ctx.reminders.runDue();
    expect(await reminderMails(email)).toEqual([]);
  });

  it('only sends the nearest reminder when several are due at once (a server that was down)', async () => {
    const v = await policyVenue();
    await enable(v.venueId);
    const { bookingId, email } = await bookWith(v);
    t.clock.set('2026-06-19T16:30:00.000Z');
    await t.ctx.reminders.runDue();
    expect(await reminderMails(email)).toHaveLength(1);
    const rows = await t.db.kysely
      .selectFrom('booking_reminders')
      .selectAll()
      .where('booking_id', '=', bookingId)
      .orderBy('offset_minutes')
      .execute();
    expect(rows.map((r) => [Number(r.offset_minutes), r.status, r.reason])).toEqual([
      [120, 'sent', null],
      [1440, 'skipped', 'superseded'],
    ]);
  });

  it('moves a reminder due in quiet hours to their end, or skips it', async () => {
    // 12 h before 19:00 Friday is 07:00 London, inside 22:00–08:00.
    const shifted = await policyVenue();
    await enable(shifted.venueId, { offsets_minutes: [720] });
    const s = await bookWith(shifted);
    const skipped = await policyVenue();
    await enable(skipped.venueId, { offsets_minutes: [720], quiet_mode: 'skip' });
    const k = await bookWith(skipped);
    t.clock.set('2026-06-19T06:00:00.000Z'); // 07:00 local: due, but quiet
    await t.ctx.reminders.runDue();
    expect(await reminderMails(s.email)).toEqual([]);
    expect(await reminderMails(k.email)).toEqual([]);
    t.clock.set('2026-06-19T07:00:00.000Z'); // 08:00 local: the quiet hours end
    await t.ctx.reminders.runDue();
    expect(await reminderMails(s.email)).toHaveLength(1);
    t.clock.set('2026-06-19T12:00:00.000Z');
    await t.ctx.reminders.runDue();
    expect(await reminderMails(k.email)).toEqual([]);
  });

  it('texts only guests who consented, and never after STOP (until START)', async () => {
    const v = await policyVenue();
    await enable(v.venueId);
    const silent = phone();
    const noConsent = await bookWith(v, { guest_phone: silent });
    const stopper = phone();
    const second = await policyVenue();
    await enable(second.venueId);
    await bookWith(second, { guest_phone: stopper, sms_consent: true });
    const stop = await t.app.inject({ method: 'POST', url: '/api/public/sms/inbound', payload: { from: stopper, body: ' Stop ' } });
    expect(stop.json()).toEqual({ success: true, opted_out: true });
    t.clock.set('2026-06-18T18:00:00.000Z');
    await t.ctx.reminders.runDue();
    expect(await reminderMails(noConsent.email)).toHaveLength(1);
    // No consent: no text at all (neither the confirmation nor the reminder).
    expect(await texts(silent)).toEqual([]);
    // Consent, then STOP: the confirmation went before the STOP; the reminder does not.
    const statuses = async () => (await texts(stopper)).map((x) => `${x.kind}:${x.status}`);
    expect(await statuses()).toEqual(['confirmation:kept']);
    // Whatever queues a text to a number that said STOP, it is recorded and never sent.
    await t.ctx.sms.queue(t.db, { to: stopper, body: 'Your table is ready', venueId: v.venueId, kind: 'waitlist_ready' });
    expect(await statuses()).toEqual(['confirmation:kept', 'waitlist_ready:opted_out']);
    await t.app.inject({ method: 'POST', url: '/api/public/sms/inbound', payload: { from: stopper, body: 'START' } });
    t.clock.set('2026-06-19T16:00:00.000Z');
    await t.ctx.reminders.runDue();
    expect(await statuses()).toEqual(['confirmation:kept', 'waitlist_ready:opted_out', 'reminder:kept']);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/public/sms/inbound', payload: { from: '07700', body: 'STOP' } })).statusCode,
    ).toBe(400);
  });
});

describe('the reminder links', () => {
  async function reminded() {
    const v = await policyVenue();
    await enable(v.venueId, { channels: ['mail'] });
    const booked = await bookWith(v);
    t.clock.set('2026-06-18T18:00:00.000Z');
    await t.ctx.reminders.runDue();
    const [mail] = await reminderMails(booked.email);
    op.headers = bearer(await login(t, op.email)); // three days on: a fresh session
    return {
      ...booked,
      confirm: linkOf(mail.text_body, /Confirm/),
      cancel: linkOf(mail.text_body, /Cancel here/),
      unsubscribe: linkOf(mail.text_body, /No more reminder mail/),
    };
  }

  it('confirms once; the floor shows it; a replay is refused and changes nothing', async () => {
    const r = await reminded();
    const view = await t.app.inject({ url: `/api/public/bookings/reminder?token=${encodeURIComponent(r.confirm)}` });
    expect(view.json()).toMatchObject({ action: 'confirm', booking_id: r.bookingId, guest_confirmed_at: null, party_size: 2 });
    const done = await act(r.confirm);
    expect(done.json()).toMatchObject({
      success: true,
      action: 'confirm',
      status: 'confirmed',
      guest_confirmed_at: t.clock.now().toISOString(),
    });
    const detail = (await t.app.inject({ url: `/api/bookings/${r.bookingId}`, headers: op.headers })).json();
    expect(detail.guest_confirmed_at).toBe(t.clock.now().toISOString());
    expect(detail.history.map((h: { action: string }) => h.action)).toContain('guest_confirmed');
    t.clock.advance(60_000);
    const again = await act(r.confirm);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already confirmed/);
    expect((await bookingRow(r.bookingId)).guest_confirmed_at).toBe(detail.guest_confirmed_at);
    const list = (await t.app.inject({ url: `/api/my-venues/${detail.venue_id}/bookings?date=${FRIDAY}`, headers: op.headers })).json();
    expect(list.data.find((b: { id: string }) => b.id === r.bookingId).guest_confirmed_at).toBe(detail.guest_confirmed_at);
  });

  it('cancels under the payment policy once; a replayed cancel and a later confirm are refused', async () => {
    const r = await reminded();
    const done = await act(r.cancel);
    expect(done.json()).toMatchObject({ success: true, action: 'cancel', status: 'cancelled', refunded_pence: 0 });
    expect((await bookingRow(r.bookingId)).status).toBe('cancelled');
    const history = (await t.app.inject({ url: `/api/bookings/${r.bookingId}`, headers: op.headers })).json().history;
    expect(history.filter((h: { action: string }) => h.action === 'guest_cancel')).toHaveLength(1);
    const again = await act(r.cancel);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already cancelled/);
    expect((await act(r.confirm)).statusCode).toBe(409);
    const after = (await t.app.inject({ url: `/api/bookings/${r.bookingId}`, headers: op.headers })).json().history;
    expect(after).toHaveLength(history.length);
  });

  it('texts the cancellation once, in the venue’s wording, to a guest who agreed to texts', async () => {
    const v = await policyVenue();
    await enable(v.venueId, { channels: ['mail'] });
    const to = phone();
    const booked = await bookWith(v, { guest_phone: to, sms_consent: true });
    t.clock.set('2026-06-18T18:00:00.000Z');
    await t.ctx.reminders.runDue();
    const [mail] = await reminderMails(booked.email);
    const cancel = linkOf(mail.text_body, /Cancel here/);
    expect((await act(cancel)).statusCode).toBe(200);
    expect((await act(cancel)).statusCode).toBe(409);
    const sent = await texts(to);
    expect(sent.map((text) => text.kind)).toEqual(['confirmation', 'cancellation']);
    expect(sent[1].body).toMatch(/^Hi Guest \d+, your booking at Test Venue on .* at 19:00 has been cancelled\.$/);
  });

  it('refuses forged, tampered, expired and other-purpose tokens', async () => {
    const r = await reminded();
    const [head, payload, tag] = r.confirm.split('.');
    const cancelPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), a: 'cancel' }),
    ).toString('base64url');
    const manageToken = await signedToken(r.bookingId);
    for (const token of [
      `${head}.${cancelPayload}.${tag}`,
      `${r.confirm.slice(0, -2)}AA`,
      'rl1.x.y',
      manageToken,
      signManageToken({ bookingId: r.bookingId, expiresAt: new Date('2027-01-01') }, 'x'.repeat(32)),
    ]) {
      const res = await act(token);
      expect(res.statusCode, token).toBe(400);
      expect(res.json().error).toBe('This link is not valid or has expired');
    }
    t.clock.set(FRIDAY_19_UTC); // the confirm link lives until the booking starts
    expect((await act(r.confirm)).statusCode).toBe(400);
    expect((await bookingRow(r.bookingId)).guest_confirmed_at).toBeNull();
  });

  it('serves the one-tap page, whose button does the action; unsubscribe stops reminder mail', async () => {
    const r = await reminded();
    const pageRes = await t.app.inject({ url: `/booking-reminder?token=${encodeURIComponent(r.confirm)}` });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.headers['content-type']).toMatch(/text\/html/);
    expect(pageRes.body).toContain('<form method="post" action="/booking-reminder">');
    expect((await bookingRow(r.bookingId)).guest_confirmed_at).toBeNull(); // a link preview changes nothing
    const posted = await t.app.inject({
      method: 'POST',
      url: '/booking-reminder',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: r.confirm }).toString(),
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.body).toMatch(/confirmed/);
    expect((await bookingRow(r.bookingId)).guest_confirmed_at).not.toBeNull();
    const bad = await t.app.inject({ url: '/booking-reminder?token=forged' });
    expect(bad.statusCode).toBe(400);

    expect((await act(r.unsubscribe)).json()).toMatchObject({ action: 'unsubscribe' });
    t.clock.set('2026-06-19T16:00:00.000Z');
    await t.ctx.reminders.runDue();
    expect(await reminderMails(r.email)).toHaveLength(1);
  });
});

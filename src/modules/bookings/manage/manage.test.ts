/**
 * Guest self-service through the manage link, over HTTP on both engines: the confirmation and
 * cancellation mail as the SMTP server receives them, what the guest sees, bad and expired tokens, and
 * the rate limit. Cancelling is in manage-cancel.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { signManageToken } from '../../../domain/booking-tokens/index.js';
import { parseMail } from '../../../platform/mail/smtp.test-helpers.js';
import { BAD_MANAGE_LINK_MESSAGE } from './manage.service.js';
import { TEST_NOW } from '../../../../test/helpers/app.js';
import {
  useManageApp,
  t,
  smtp,
  FRIDAY,
  FRIDAY_19_UTC,
  MANAGE,
  policyVenue,
  bookPaid,
  bookFree,
  tokenFromMail,
  signedToken,
  view,
  cancel,
  bookingRow,
} from './manage.test-support.js';

useManageApp();

describe('mail received over SMTP', () => {
  const receivedBy = (to: string) => smtp.received.filter((m) => m.envelopeTo.includes(to)).map((m) => parseMail(m.raw));

  it('the confirmation of a public booking arrives with its calendar file and a manage link that works', async () => {
    const v = await policyVenue();
    const { bookingId, email } = await bookFree(v);
    await t.ctx.mail.flush();
    const [mail] = receivedBy(email);
    expect(mail.headers.get('subject')).toBe('Your booking at Test Venue on Friday, 19 June 2026 is confirmed');
    expect(mail.headers.get('reply-to')).toBe('hello@venue.test');
    // The guest reads the short reference (the door accepts it), not the internal id.
    const { reference } = await t.db.kysely
      .selectFrom('bookings')
      .select('reference')
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(reference).toMatch(/^[A-Z0-9]{6}$/);
    expect(mail.text).toContain(`Booking reference: ${reference}`);
    expect(mail.attachments).toHaveLength(1);
    const [ics] = mail.attachments;
    expect(ics.filename).toBe('booking.ics');
    expect(ics.contentType).toMatch(/^text\/calendar.*method=PUBLISH/);
    expect(ics.content).toContain('METHOD:PUBLISH');
    expect(ics.content).toContain('DTSTART:20260619T180000Z');
    expect(ics.content).toContain(`UID:${bookingId}@maitred`);
    // The link opens the guest's manage page, whose app reads the booking with the link's token.
    const link = /http:\/\/maitred\.test\/widget\/manage\?token=(\S+)/.exec(mail.text ?? '');
    expect(link).not.toBeNull();
    const page = await t.app.inject({ url: `/widget/manage?token=${link![1]}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const res = await t.app.inject({ url: `/api/public/bookings/manage?token=${link![1]}` });
    expect(res.json()).toMatchObject({ booking_id: bookingId, status: 'confirmed' });
  });

  it('the cancellation arrives with a cancelling calendar file for the same event', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full' });
    const { bookingId, email } = await bookPaid(v);
    expect((await cancel(await tokenFromMail(email))).statusCode).toBe(200);
    await t.ctx.mail.flush();
    const mails = receivedBy(email);
    expect(mails.map((m) => m.headers.get('subject')).sort()).toEqual([
      'Your booking at Test Venue has been cancelled',
      'Your booking at Test Venue on Friday, 19 June 2026 is confirmed',
    ]);
    const cancelled = mails.find((m) => m.headers.get('subject')!.endsWith('has been cancelled'))!;
    expect(cancelled.text).toContain('£20.00 is being refunded to the card you paid with.');
    const [ics] = cancelled.attachments;
    expect(ics.filename).toBe('booking.ics');
    expect(ics.contentType).toMatch(/^text\/calendar.*method=CANCEL/);
    expect(ics.content).toContain('METHOD:CANCEL');
    expect(ics.content).toContain('STATUS:CANCELLED');
    expect(ics.content).toContain(`UID:${bookingId}@maitred`);
    expect(ics.content).toContain('SEQUENCE:1');
  });
});

describe('GET /api/public/bookings/manage', () => {
  it('shows a paid booking as its guest may see it: venue, time, party, money, and what cancelling now would refund', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'partial', refund_percent: 75 }, 333);
    const { bookingId, email } = await bookPaid(v, { party: 3 });
    const res = await view(await tokenFromMail(email));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      booking_id: bookingId,
      reference: expect.stringMatching(/^[A-Z0-9]{6}$/),
      status: 'confirmed',
      venue: {
        id: v.venueId,
        name: 'Test Venue',
        address: '1 High Street, London',
        timezone: 'Europe/London',
        phone: null,
        email: 'hello@venue.test',
        // A venue without widgets or a logo: the page keeps the base look.
        theme_url: null,
        logo_url: null,
      },
      date: FRIDAY,
      time: '19:00',
      party_size: 3,
      duration_minutes: 120,
      starts_at: FRIDAY_19_UTC,
      ends_at: '2026-06-19T20:00:00.000Z',
      guest_name: expect.stringMatching(/^Guest \d+$/),
      cancelled_at: null,
      payment: { deposit_type: 'deposit', deposit_pence: 999, payment_status: 'paid', paid_pence: 999, refunded_pence: 0 },
      cancellation: {
        can_cancel: true,
        refusal: null,
        message: null,
        // `anytime`: until the booking starts.
        cancellable_until: FRIDAY_19_UTC,
        // 75% of 999 is 749.25, rounded down.
        refund_pence: 749,
        hold_release_pence: 0,
        policy: {
          refund_type: 'partial',
          refund_percent: 75,
          cancel_type: 'anytime',
          cancel_cutoff_value: 24,
          cancel_cutoff_unit: 'hours',
        },
      },
    });
    // A forwarded link shows no contact details.
    expect(res.body).not.toContain(email);
  });

  it('a booking without a payment policy follows the defaults: cancellable, nothing to refund', async () => {
    const v = await policyVenue();
    const { email } = await bookFree(v);
    const { cancellation, payment } = (await view(await tokenFromMail(email))).json();
    expect(payment).toEqual({ deposit_type: 'none', deposit_pence: 0, payment_status: 'none', paid_pence: 0, refunded_pence: 0 });
    expect(cancellation).toMatchObject({ can_cancel: true, refund_pence: 0, policy: { refund_type: 'none', cancel_type: 'anytime' } });
  });

  it('refuses forged, foreign and expired tokens alike (400), whatever booking they name; a real token of no booking is 404', async () => {
    const v = await policyVenue();
    const { bookingId, email } = await bookFree(v);
    const token = await tokenFromMail(email);
    const [prefix, payload, tag] = token.split('.');
    const flipped = `${prefix}.${payload}.${tag.slice(0, 10)}${tag[10] === 'A' ? 'B' : 'A'}${tag.slice(11)}`;
    const foreignSecret = 'not-the-server-secret-but-long-enough-to-use';
    const forgedForReal = signManageToken({ bookingId, expiresAt: new Date('2026-12-31T00:00:00Z') }, foreignSecret);
    const forgedForNone = signManageToken({ bookingId: 'bkg_doesnotexist', expiresAt: new Date('2026-12-31T00:00:00Z') }, foreignSecret);
    const refusals = await Promise.all([flipped, forgedForReal, forgedForNone, 'mm1.garbage', 'x'].map((bad) => view(bad)));
    for (const res of refusals) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ request_id: expect.any(String), error: BAD_MANAGE_LINK_MESSAGE });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await cancel(forgedForReal)).json()).toEqual({ request_id: expect.any(String), error: BAD_MANAGE_LINK_MESSAGE });
    expect((await bookingRow(bookingId)).status).toBe('confirmed');

    // The mailed link lasts until a day after the booking starts.
    t.clock.set('2026-06-20T17:59:59.999Z');
    expect((await view(token)).statusCode).toBe(200);
    t.clock.set('2026-06-20T18:00:00.000Z');
    expect((await view(token)).json()).toEqual({ request_id: expect.any(String), error: BAD_MANAGE_LINK_MESSAGE });
    expect((await cancel(token)).statusCode).toBe(400);

    t.clock.set(TEST_NOW);
    const gone = await view(await signedToken('bkg_doesnotexist'));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ request_id: expect.any(String), error: 'Booking not found' });
    expect((await t.app.inject({ url: MANAGE })).statusCode).toBe(400);
  });
});

describe('rate limit', () => {
  it('counts both routes per client address before any work: 429 with Retry-After once used up', async () => {
    const address = '203.0.113.77';
    for (let i = 0; i < 1000; i++) await t.ctx.rateLimits.hit('public_booking', address);
    const get = await t.app.inject({ url: `${MANAGE}?token=x`, remoteAddress: address });
    expect(get.statusCode).toBe(429);
    expect(Number(get.headers['retry-after'])).toBeGreaterThan(0);
    const post = await t.app.inject({ method: 'POST', url: `${MANAGE}/cancel`, payload: { token: 'x' }, remoteAddress: address });
    expect(post.statusCode).toBe(429);
    expect((await t.app.inject({ url: `${MANAGE}?token=x`, remoteAddress: '203.0.113.78' })).statusCode).toBe(400);
  });
});

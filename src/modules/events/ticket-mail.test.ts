/**
 * A sale's ticket confirmation is queued small in the sale's transaction and rendered, with its QR code,
 * when sent (ticket-mail.ts, docs/decisions.md "Booking confirmations rendered when sent"): the same mail
 * as one rendered in the transaction, whose QR code is the booking's door token; nothing sent (once,
 * never retried) when the guest was erased first or the booking is gone; nothing queued by a sale that
 * rolls back. A paid reservation confirmed later keeps the mail rendered in its transaction.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { storedColumns } from '../../platform/mail/mail.js';
import { createTestSmtp, parseMail, type TestSmtp } from '../../platform/mail/smtp.test-helpers.js';
import { anonymiseGuestBookings, eventBooking } from '../bookings/index.js';
import { findVenue } from '../venues/index.js';
import { eventById, ticketOfBooking } from './events.repository.js';
import { bookingRow, buy, buyPaid, finalize, onSale } from './events.test-support.js';
import { deferTicketMail, qrSvg, queueTicketMail, TICKETS_TEMPLATE } from './ticket-mail.js';

let t: TestApp;
let smtp: TestSmtp;
let n = 0;

const outboxRow = (to: string) => t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', to).executeTakeFirstOrThrow();

/** A free sale of `quantity` tickets; answers the guest's address and what the sale wrote. */
async function freeSale(quantity = 2) {
  const sale = await onSale(t, { name: 'Guest list' });
  const email = `tickets${++n}@example.test`;
  const res = await buy(t, sale.eventId, sale.ticketTypeId, { quantity, email });
  expect(res.json()).toMatchObject({ status: 'confirmed' });
  const bookingId = res.json().booking_id as string;
  return { ...sale, email, bookingId };
}

/** What the sale's mail input was: the booking, event, venue and ticket as written. */
async function saleInput(sale: Awaited<ReturnType<typeof freeSale>>) {
  const booking = (await eventBooking(t.db, sale.bookingId))!;
  return {
    booking,
    venue: (await findVenue(t.db, booking.operator_id, booking.venue_id))!,
    event: (await eventById(t.db, sale.eventId))!,
    ticket: (await ticketOfBooking(t.db, sale.bookingId))!,
    ticketName: 'Guest list',
  };
}

beforeAll(async () => {
  smtp = await createTestSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Maitred Tickets <tickets@maitred.test>' });
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

describe("a sale's ticket confirmation, rendered when sent", () => {
  it('is a small row in the sale transaction, sent after commit as the mail rendered in the transaction would be', async () => {
    const sale = await freeSale(2);
    const row = await outboxRow(sale.email);
    expect(row).toMatchObject({ template: TICKETS_TEMPLATE, text_body: '', html_body: null, attachments: '[]', status: 'pending' });
    expect(row.subject).toBe('Your tickets for Club Night at Test Venue');
    expect(JSON.parse(row.template_data!)).toEqual({
      booking_id: sale.bookingId,
      operator_id: sale.op.operatorId,
      venue_id: sale.venueId,
      event_id: sale.eventId,
      ticket_name: 'Guest list',
      quantity: 2,
      total_pence: 0,
    });
    expect(row.template_data!.length).toBeLessThan(300);

    // What the same sale's mail rendered in the transaction holds (the form a paid confirmation still queues).
    const input = await saleInput(sale);
    let inTransaction: Record<string, unknown> | undefined;
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await queueTicketMail(trx, t.ctx.mail, input);
        inTransaction = await trx
          .selectFrom('mail_outbox')
          .selectAll()
          .where('template', 'is', null)
          .where('recipient', '=', sale.email)
          .executeTakeFirst();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const rendered = await t.ctx.mail.render(row);
    if ('skip' in rendered) throw new Error(rendered.skip);
    const columns = storedColumns(rendered);
    expect(inTransaction).toMatchObject(columns);
    expect(columns.text_body).toContain('Tickets: 2 × Guest list');
    expect(columns.text_body).toContain('Total: Free');
    const [attachment] = JSON.parse(columns.attachments);
    expect(attachment).toMatchObject({ filename: `ticket-${sale.bookingId}.svg`, content_type: 'image/svg+xml' });
    // The QR code is the booking's door token, the one the check-in takes.
    expect(attachment.content).toBe(await qrSvg(input.ticket.qr_token));

    expect(await t.ctx.mail.flush()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect((await outboxRow(sale.email)).status).toBe('sent');
    const sent = parseMail(smtp.received[0].raw);
    expect(sent.headers.get('subject')).toBe(row.subject);
    expect(sent.text).toContain('Hello Ada Guest, your tickets for Club Night are confirmed.');
    expect(sent.html).toContain('Booking reference');
    expect(sent.attachments).toHaveLength(1);
    expect(sent.attachments[0].content).toBe(attachment.content);
  });

  it('keeps the sale as made (ticket name, quantity, total) when the ticket type changes before sending', async () => {
    const sale = await freeSale(3);
    const before = await t.ctx.mail.render(await outboxRow(sale.email));
    await t.db.kysely.updateTable('ticket_types').set({ name: 'Renamed', price_pence: 900 }).where('id', '=', sale.ticketTypeId).execute();
    const after = await t.ctx.mail.render(await outboxRow(sale.email));
    expect(after).toEqual(before);
    if ('skip' in after) throw new Error(after.skip);
    expect(after.text).toContain('Tickets: 3 × Guest list');
  });

  it('is not sent when the guest was erased first: failed once with the reason, never retried', async () => {
    const sale = await freeSale();
    const booking = await bookingRow(t, sale.bookingId);
    await anonymiseGuestBookings(t.db, sale.op.operatorId, booking.user_id!, t.clock.now());
    expect(await t.ctx.mail.flush()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    const row = await outboxRow(sale.email);
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(/^not sent: .*erased/);
    expect(smtp.received).toHaveLength(0);
    t.clock.advance(24 * 60 * 60_000);
    expect(await t.ctx.mail.flush()).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it('is not sent when the booking is gone', async () => {
    const sale = await freeSale();
    const row = await outboxRow(sale.email);
    const data = { ...JSON.parse(row.template_data!), booking_id: 'bkg_gone' };
    expect(await t.ctx.mail.render({ ...row, template_data: JSON.stringify(data) })).toEqual({ skip: 'the booking no longer exists' });
  });

  it('is not queued by a sale transaction that rolls back', async () => {
    const sale = await freeSale();
    const input = await saleInput(sale);
    const email = 'rolled-back@example.test';
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await deferTicketMail(trx, t.ctx.mail, { ...input, booking: { ...input.booking, guest_email: email } });
        expect(await trx.selectFrom('mail_outbox').select('template').where('recipient', '=', email).execute()).toEqual([
          { template: TICKETS_TEMPLATE },
        ]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await t.db.kysely.selectFrom('mail_outbox').select('id').where('recipient', '=', email).execute()).toEqual([]);
  });

  it('a paid reservation confirmed later gets the mail rendered in its transaction', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { name: 'Standard', price_pence: 1250 });
    const email = `paid${++n}@example.test`;
    const { booking_id, payment_intent_id } = await buyPaid(t, eventId, ticketTypeId, 2, email);
    expect((await finalize(t, eventId, payment_intent_id)).json()).toMatchObject({ status: 'confirmed' });
    const row = await outboxRow(email);
    expect(row).toMatchObject({ template: null, subject: 'Your tickets for Club Night at Test Venue' });
    expect(row.text_body).toContain('Total: £25.00');
    expect(JSON.parse(row.attachments)[0].filename).toBe(`ticket-${booking_id}.svg`);
  });
});

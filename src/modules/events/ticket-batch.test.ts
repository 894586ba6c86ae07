/**
 * The writes of a group commit's batch of ticket purchases, on both engines: the confirmed free sales of a
 * batch leave their rows (booking, ticket, history, roster entry, ticket mail, new guest record) to one
 * multi-row statement per table, written before the commit, so each sale is stored whole; a sale refused in
 * the batch (sold out by the sales before it) leaves nothing; a paid sale in the same batch is written at
 * once and waits for its payment as before. One email is one guest record however many sales give it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { historyOf } from '../../../test/helpers/rows.js';
import { addTicketType, buy, onSale } from './events.test-support.js';

const TOKEN = 'ticket-batch-metrics';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => t.close());

/** Ticket transactions so far, and the purchases they held. */
async function batches(): Promise<{ count: number; sum: number }> {
  const text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { count: value('maitred_ticket_batch_size_count'), sum: value('maitred_ticket_batch_size_sum') };
}

const usersByEmail = (emails: string[]) =>
  t.db.kysely.selectFrom('users').select(['id', 'email', 'name']).where('email', 'in', emails).orderBy('email').execute();

describe('a batch of ticket purchases', () => {
  it('stores every free sale of the batch whole, and gives one email one guest record', async () => {
    const { eventId, ticketTypeId, venueId } = await onSale(t, { capacity: 50, price_pence: 0 });
    // A guest record made before the batch: the batch finds it rather than making another.
    expect((await buy(t, eventId, ticketTypeId, { email: 'known.fan@example.test' })).statusCode).toBe(200);
    const [known] = await usersByEmail(['known.fan@example.test']);
    const emails = [
      'new.fan@example.test',
      'known.fan@example.test',
      'NEW.Fan@example.test',
      'other.fan@example.test',
      'known.fan@example.test',
    ];
    const before = await batches();
    const answers = await Promise.all(emails.map((email, n) => buy(t, eventId, ticketTypeId, { email, quantity: 1 + (n % 3) })));
    const after = await batches();
    expect(after.sum - before.sum).toBe(5);
    expect(after.count - before.count).toBeLessThan(5);

    const users = await usersByEmail(['known.fan@example.test', 'new.fan@example.test', 'other.fan@example.test']);
    expect(users.map((u) => u.email)).toEqual(['known.fan@example.test', 'new.fan@example.test', 'other.fan@example.test']);
    expect(users[0]!.id).toBe(known!.id);
    const userOf = new Map(users.map((u) => [u.email, u.id]));
    for (const [n, answer] of answers.entries()) {
      expect(answer.statusCode, answer.body).toBe(200);
      const { booking_id: id } = answer.json();
      expect(answer.json()).toMatchObject({ free: true, status: 'confirmed' });
      const row = await t.db.kysely.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'confirmed', kind: 'event', event_id: eventId, guest_count: 1 + (n % 3), total_pence: 0 });
      expect(row.reference).toMatch(/\S/);
      expect(row.user_id).toBe(userOf.get(emails[n]!.toLowerCase()));
      const ticket = await t.db.kysely.selectFrom('event_tickets').selectAll().where('booking_id', '=', id).executeTakeFirstOrThrow();
      expect(ticket).toMatchObject({ event_id: eventId, ticket_type_id: ticketTypeId, quantity: 1 + (n % 3) });
      expect(ticket.qr_token.length).toBeGreaterThan(20);
      expect(await historyOf(t, id)).toEqual([{ action: 'create', to_status: 'confirmed' }]);
      const mails = await t.db.kysely
        .selectFrom('mail_outbox')
        .select(['template', 'template_data'])
        .where('template_data', 'like', `%${id}%`)
        .execute();
      expect(mails).toHaveLength(1);
      expect(JSON.parse(mails[0]!.template_data!)).toMatchObject({ booking_id: id, event_id: eventId, quantity: 1 + (n % 3) });
    }
    // Every buyer is on the venue's roster once.
    const roster = await t.db.kysely.selectFrom('guest_roster_venues').select('user_id').where('venue_id', '=', venueId).execute();
    expect(roster.map((r) => r.user_id).sort()).toEqual([...userOf.values()].sort());
  });

  it('sells exactly what is left in a batch: the refused sales leave no booking, ticket, mail or guest record', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { capacity: 3, price_pence: 0 });
    const emails = Array.from({ length: 8 }, (_, n) => `batch-racer${n}@example.test`);
    const answers = await Promise.all(emails.map((email) => buy(t, eventId, ticketTypeId, { email })));
    const sold = answers.filter((a) => a.statusCode === 200);
    expect(sold).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(5);
    const tickets = await t.db.kysely.selectFrom('event_tickets').select('booking_id').where('event_id', '=', eventId).execute();
    expect(tickets.map((r) => r.booking_id).sort()).toEqual(sold.map((a) => a.json().booking_id).sort());
    const refusedEmails = emails.filter((_, n) => answers[n]!.statusCode === 409);
    expect(await usersByEmail(refusedEmails)).toEqual([]);
    const mails = await t.db.kysely.selectFrom('mail_outbox').select('id').where('recipient', 'in', refusedEmails).execute();
    expect(mails).toEqual([]);
  });

  it('writes a paid sale of the same batch at once: it waits for its payment while the free ones are confirmed', async () => {
    const { events, eventId, ticketTypeId } = await onSale(t, { capacity: 20, price_pence: 0 });
    const paidType = await addTicketType(events, eventId, { name: 'Paid', price_pence: 1200, capacity: 20 });
    const answers = await Promise.all([
      buy(t, eventId, ticketTypeId, { email: 'mixed.free1@example.test' }),
      buy(t, eventId, paidType, { email: 'mixed.paid@example.test' }),
      buy(t, eventId, ticketTypeId, { email: 'mixed.free2@example.test' }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(answers[1]!.json()).toMatchObject({ requires_payment: true });
    const statuses = await t.db.kysely
      .selectFrom('bookings')
      .select(['guest_email', 'status'])
      .where('event_id', '=', eventId)
      .orderBy('guest_email')
      .execute();
    expect(statuses).toEqual([
      { guest_email: 'mixed.free1@example.test', status: 'confirmed' },
      { guest_email: 'mixed.free2@example.test', status: 'confirmed' },
      { guest_email: 'mixed.paid@example.test', status: 'pending_payment' },
    ]);
  });
});

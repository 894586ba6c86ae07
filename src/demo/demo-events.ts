/**
 * The demo venue's ticketed events: three upcoming nights (about one, two and three weeks ahead,
 * venue-local) with ticket types, approved and on the what's-on listing, and tickets sold through the
 * public ticket flow (free guest-list places, and paid ones through the simulated card form when that
 * provider runs), so stats, the door list and the widget have something to show. One event is still
 * a draft. Only a venue without events gets them, so a second run adds nothing. With the bot check on
 * (a Turnstile site key), no tickets are sold: the demo cannot pass it.
 */
import { addDays, localToday } from '../domain/venue-time.js';
import type { Clock } from '../platform/clock.js';
import type { DemoApi } from './demo-vouchers.js';

const SIMULATED_KEY = 'pk_test_simulated';
/** Days the demo venue is closed (its Christmas blackout): no event then. */
const CLOSED = ['12-25', '12-26'];

interface DemoEvent {
  inDays: number;
  status: 'approved' | 'draft';
  fields: Record<string, unknown>;
  tickets: { name: string; price_pence: number; capacity: number | null; sales: { name: string; email: string; quantity: number }[] }[];
}

const EVENTS: DemoEvent[] = [
  {
    inDays: 9,
    status: 'approved',
    fields: {
      name: 'Northern Soul All-Nighter',
      start_time: '21:00',
      end_time: '03:00',
      last_entry_time: '00:30',
      event_type: 'club_night',
      event_genre: 'soul',
      description: 'Four DJs, a sprung dance floor and original 45s until the small hours.',
      guest_list_capacity: 180,
    },
    tickets: [
      {
        name: 'Guest list (before 22:00)',
        price_pence: 0,
        capacity: 40,
        sales: [
          { name: 'Grace Hopper', email: 'grace.hopper@example.com', quantity: 2 },
          { name: 'Alan Turing', email: 'alan.turing@example.com', quantity: 1 },
        ],
      },
      {
        name: 'Standard entry',
        price_pence: 1200,
        capacity: 120,
        sales: [
          { name: 'Ada Lovelace', email: 'ada.lovelace@example.com', quantity: 4 },
          { name: 'Tim Berners-Lee', email: 'tim.bl@example.com', quantity: 2 },
        ],
      },
    ],
  },
  {
    inDays: 16,
    status: 'approved',
    fields: {
      name: 'Jazz Supper Club',
      start_time: '19:00',
      end_time: '23:00',
      event_type: 'live_music',
      event_genre: 'jazz',
      description: 'The Blue Owls trio with a three-course supper.',
      guest_list_capacity: 60,
    },
    tickets: [
      {
        name: 'Supper and show',
        price_pence: 4500,
        capacity: 60,
        sales: [{ name: 'Katherine Johnson', email: 'k.johnson@example.com', quantity: 2 }],
      },
    ],
  },
  {
    inDays: 23,
    status: 'draft',
    fields: { name: 'Quiz Night', start_time: '20:00', event_type: 'quiz', description: 'Teams of up to six.' },
    tickets: [{ name: 'Team place', price_pence: 0, capacity: 20, sales: [] }],
  },
];

export async function addDemoEvents(api: DemoApi, services: { clock: Clock }, venue: { id: string; timezone: string }): Promise<void> {
  if ((await api.get<{ total: number }>(`/api/my-venues/${venue.id}/events?limit=1`)).total > 0) return;
  const config = await api.get<{ publishable_key: string | null; turnstile_site_key: string | null }>(
    `/api/public/venues/${venue.id}/events-widget-config`,
  );
  const today = localToday(services.clock.now(), venue.timezone);

  for (const spec of EVENTS) {
    let date = addDays(today, spec.inDays);
    while (CLOSED.includes(date.slice(5))) date = addDays(date, 1);
    const { id: eventId } = await api.post<{ id: string }>('/api/my-events', {
      venue_id: venue.id,
      event_date: date,
      status: spec.status,
      ...spec.fields,
    });
    for (const [order, ticket] of spec.tickets.entries()) {
      const { id: ticketTypeId } = await api.post<{ id: string }>(`/api/my-events/${eventId}/ticket-types`, {
        name: ticket.name,
        price_pence: ticket.price_pence,
        capacity: ticket.capacity,
        sort_order: order,
      });
      if (spec.status !== 'approved' || config.turnstile_site_key) continue;
      for (const sale of ticket.sales) {
        if (ticket.price_pence > 0 && config.publishable_key !== SIMULATED_KEY) continue;
        const bought = await api.post<{ payment_intent_id?: string }>(`/api/public/events/${eventId}/create-intent`, {
          selection: { kind: 'ticket', ticket_type_id: ticketTypeId, quantity: sale.quantity },
          guest_name: sale.name,
          guest_email: sale.email,
        });
        if (!bought.payment_intent_id) continue;
        await api.post(`/api/public/simulated-payments/${bought.payment_intent_id}/confirm`, { payment_method: 'pm_card_visa' });
        await api.post(`/api/public/events/${eventId}/finalize`, { payment_intent_id: bought.payment_intent_id });
      }
    }
  }
}

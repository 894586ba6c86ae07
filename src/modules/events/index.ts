/**
 * The events module: ticketed events (its tables: events, ticket_types, event_tickets): the operator's
 * events with their status table, listing, conflict check, stats, door list and images; ticket types;
 * guests' ticket sales with the `event_booking` fulfilments. Bookings are the bookings module's, reached
 * through its index; ticket types follow the ticket profiles and admission groups they name through
 * the reference registry.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../platform/clock.js';
import type { References } from '../../platform/references.js';
import type { Uploads } from '../../platform/uploads.js';
import { createEventImages } from './event-images.js';
import { createEventInsights } from './event-insights.js';
import { createEventStatus } from './event-status.js';
import { repointTicketTypes } from './events.repository.js';
import { createEventsService, type EventsDeps } from './events.service.js';
import { createImageSearch } from './image-search.js';
import { createTicketSales, type TicketSalesDeps } from './ticket-sales.service.js';
import { createTicketTypes } from './ticket-types.service.js';

export { accountTickets } from './events.repository.js';
export { eventsPublicRoutes } from './events.public-routes.js';
export { eventsRoutes } from './events.routes.js';
export { ticketTypesRoutes } from './ticket-types.routes.js';

export interface EventsModuleDeps extends EventsDeps, Omit<TicketSalesDeps, keyof EventsDeps> {
  references: References;
  uploads: Pick<Uploads, 'saveImage'>;
  imageSearch: { accessKey: string | undefined; apiBase: string };
  log: Logger;
  db: Db;
  clock: Clock;
}

/** The module's services; registers the ticket types' repointers and the `event_booking` fulfilment. */
export function createEventsModule(deps: EventsModuleDeps) {
  const { db, clock, references } = deps;
  references.onRepoint('ticket_profile', (conn, venueId, remap, now) => repointTicketTypes(conn, 'ticket_profile_id', venueId, remap, now));
  references.onRepoint('admission_group', (conn, venueId, remap, now) =>
    repointTicketTypes(conn, 'admission_rule_group_id', venueId, remap, now),
  );
  const events = createEventsService(deps);
  const sales = createTicketSales(deps);
  sales.registerFulfilments();
  return {
    events,
    status: createEventStatus({ db, clock, events, eventBookings: deps.eventBookings }),
    insights: createEventInsights({ db, events }),
    images: createEventImages({ uploads: deps.uploads, search: createImageSearch({ ...deps.imageSearch, log: deps.log }) }),
    ticketTypes: createTicketTypes({ db, clock, references, events }),
    sales,
  };
}

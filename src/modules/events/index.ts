/**
 * The events module: ticketed events (its tables: events, ticket_types, event_tickets): the operator's
 * events with their status table, listing, conflict check, stats, door list and images; ticket types;
 * guests' ticket sales with the `event_booking` fulfilments. Bookings are the bookings module's, reached
 * through its index; ticket types follow the ticket profiles and admission groups they name through
 * the reference registry.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import type { References } from '../../platform/references.js';
import type { Uploads } from '../../platform/uploads.js';
import { createEventImages } from './event-images.js';
import { createEventInsights } from './event-insights.js';
import { createEventStatus, type SubmissionDecided } from './event-status.js';
import { createOrganiserEvents } from './organiser-events.js';
import { repointTicketTypes } from './events.repository.js';
import { createEventsService, type EventsDeps } from './events.service.js';
import { createImageSearch } from './image-search.js';
import { ticketsTemplate, TICKETS_TEMPLATE } from './ticket-mail.js';
import { createTicketSales, type TicketSalesDeps } from './ticket-sales.service.js';
import { createTicketTypes } from './ticket-types.service.js';

export { accountTickets } from './events.repository.js';
export { eventsPublicRoutes } from './events.public-routes.js';
export { venueSubmissions, type OrganiserEvents, type SubmissionBody, type SubmissionUpdateBody } from './organiser-events.js';
export type { EventRow } from './events.repository.js';
export { EventCreateBody, EventUpdateBody, EventRecord } from './events.schemas.js';
export { eventsRoutes } from './events.routes.js';
export { ticketTypesRoutes } from './ticket-types.routes.js';

export interface EventsModuleDeps extends EventsDeps, Omit<TicketSalesDeps, keyof EventsDeps> {
  references: References;
  submissionDecided?: SubmissionDecided;
  uploads: Pick<Uploads, 'saveImage'>;
  imageSearch: { accessKey: string | undefined; apiBase: string };
  log: Logger;
  db: Db;
  clock: Clock;
  /** The venue whatever its status (the venues module's): a sale's mail is rendered when sent, maybe after the venue closed. */
  findVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
}

/**
 * The module's services; registers the ticket types' repointers, the `event_booking` fulfilment and the
 * ticket confirmation's mail template (a sale's mail is rendered when sent, ticket-mail.ts).
 */
export function createEventsModule(deps: EventsModuleDeps) {
  const { db, clock, references } = deps;
  references.onRepoint('ticket_profile', (conn, venueId, remap, now) => repointTicketTypes(conn, 'ticket_profile_id', venueId, remap, now));
  references.onRepoint('admission_group', (conn, venueId, remap, now) =>
    repointTicketTypes(conn, 'admission_rule_group_id', venueId, remap, now),
  );
  deps.mail.template(TICKETS_TEMPLATE, ticketsTemplate({ findVenue: deps.findVenue }));
  const events = createEventsService(deps);
  const sales = createTicketSales(deps);
  sales.registerFulfilments();
  return {
    events,
    status: createEventStatus({ db, clock, events, eventBookings: deps.eventBookings, submissionDecided: deps.submissionDecided }),
    organiser: createOrganiserEvents({ db, clock, venueNames: deps.venueNames }),
    insights: createEventInsights({ db, events }),
    images: createEventImages({ uploads: deps.uploads, search: createImageSearch({ ...deps.imageSearch, log: deps.log }) }),
    ticketTypes: createTicketTypes({ db, clock, references, events }),
    sales,
  };
}

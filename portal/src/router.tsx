/**
 * The portal's routes (code-based, under /app/) with typed search params: the floor's venue, date, view
 * and floor live in the URL, so a view is linkable and survives a reload.
 */
import { createRootRoute, createRoute, createRouter, redirect } from '@tanstack/react-router';
import { lazy } from 'react';
import { Shell } from './shell/Shell';
import { FloorPage } from './floor/FloorPage';

export type FloorView = 'grid' | 'list' | 'floor';
export interface FloorSearch {
  venue?: string;
  date?: string;
  view?: FloorView;
  floor?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 && value.length < 100 ? value : undefined);
const date = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined);

const rootRoute = createRootRoute({ component: Shell });

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/floor', search: {} });
  },
});

export const floorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/floor',
  validateSearch: (search: Record<string, unknown>): FloorSearch => ({
    venue: text(search.venue),
    date: date(search.date),
    view: search.view === 'list' || search.view === 'floor' ? search.view : undefined,
    floor: text(search.floor),
  }),
  component: FloorPage,
});

// The door screen brings the QR decoder along: loaded when first opened, not with the floor.
const DoorPage = lazy(() => import('./door/DoorPage'));
export const doorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/door',
  validateSearch: (search: Record<string, unknown>): { venue?: string } => ({ venue: text(search.venue) }),
  component: DoorPage,
});

// The venue set-up pages (checklist, settings, payouts): loaded when first opened.
const venueSearch = (search: Record<string, unknown>): { venue?: string } => ({ venue: text(search.venue) });
const ChecklistPage = lazy(() => import('./setup/venue/ChecklistPage'));
const VenuePage = lazy(() => import('./setup/venue/VenuePage'));
const PayoutsPage = lazy(() => import('./setup/venue/PayoutsPage'));
const setupRoute = createRoute({ getParentRoute: () => rootRoute, path: '/setup', validateSearch: venueSearch, component: ChecklistPage });
const setupVenueRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup/venue',
  validateSearch: venueSearch,
  component: VenuePage,
});
const setupPayoutsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup/payouts',
  validateSearch: venueSearch,
  component: PayoutsPage,
});

// Availability and the catalogue.
const AvailabilityPage = lazy(() => import('./setup/availability/AvailabilityPage'));
const setupAvailabilityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup/availability',
  validateSearch: venueSearch,
  component: AvailabilityPage,
});
const CataloguePage = lazy(() => import('./setup/catalogue/CataloguePage'));
const setupCatalogueRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup/catalogue',
  validateSearch: venueSearch,
  component: CataloguePage,
});

// The floorplan editor is set-up work: loaded when first opened.
const FloorplanPage = lazy(() => import('./setup/floorplan/FloorplanPage'));
export const floorplanRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup/floorplan',
  validateSearch: (search: Record<string, unknown>): { venue?: string; floor?: string } => ({
    venue: text(search.venue),
    floor: text(search.floor),
  }),
  component: FloorplanPage,
});

// Branding and widgets: colours, logo, custom CSS, the live widget preview and the embed snippets.
const BrandingPage = lazy(() => import('./setup/branding/BrandingPage'));
const setupBrandingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup/branding',
  validateSearch: venueSearch,
  component: BrandingPage,
});

// The guest CRM: the roster (search, filters) and one guest's page. Loaded when first opened.
const GuestsPage = lazy(() => import('./guests/GuestsPage'));
const GuestPage = lazy(() => import('./guests/GuestPage'));
const SEEN = ['within-30', 'within-90', 'within-365', 'over-90', 'over-365'] as const;
const guestsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/guests',
  validateSearch: (
    search: Record<string, unknown>,
  ): { venue?: string; q?: string; tag?: string; seen?: (typeof SEEN)[number]; erased?: string } => ({
    venue: text(search.venue),
    q: text(search.q),
    tag: text(search.tag),
    seen: SEEN.find((choice) => choice === search.seen),
    erased: typeof search.erased === 'string' && search.erased.length < 300 ? search.erased : undefined,
  }),
  component: GuestsPage,
});
const guestRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/guests/$guestId',
  validateSearch: venueSearch,
  component: GuestPage,
});

// Team: portal users, roles with their permission grid and venue scope, members, and two-factor.
const TeamPage = lazy(() => import('./team/TeamPage'));
const teamRoute = createRoute({ getParentRoute: () => rootRoute, path: '/team', validateSearch: venueSearch, component: TeamPage });

// The waitlist: today's walk-ins (quoted waits, notify, seat, remove) and the online list with its offers.
const WaitlistPage = lazy(() => import('./waitlist/WaitlistPage'));
const waitlistRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/waitlist',
  validateSearch: venueSearch,
  component: WaitlistPage,
});

// Money: vouchers (look-up, redeem, refund, issue, settings) and the numbers (charts of the venue's figures).
const VouchersPage = lazy(() => import('./vouchers/VouchersPage'));
const vouchersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/vouchers',
  validateSearch: venueSearch,
  component: VouchersPage,
});
// Memberships: the account's membership tiers (docs/memberships.md).
const MembershipsPage = lazy(() => import('./memberships/MembershipsPage'));
const membershipsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/memberships',
  validateSearch: venueSearch,
  component: MembershipsPage,
});
export interface NumbersSearch {
  venue?: string;
  from?: string;
  to?: string;
}
const NumbersPage = lazy(() => import('./numbers/NumbersPage'));
export const numbersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/numbers',
  validateSearch: (search: Record<string, unknown>): NumbersSearch => ({
    venue: text(search.venue),
    from: date(search.from),
    to: date(search.to),
  }),
  component: NumbersPage,
});

// Events: the venue's events by status, and one event's page (details, tickets, sales, door list).
const EventsPage = lazy(() => import('./events/EventsPage'));
const EventPage = lazy(() => import('./events/EventPage'));
const EVENT_STATUSES = ['draft', 'approved', 'pending_venue_approval', 'rejected', 'cancelled'] as const;
export interface EventsSearch {
  venue?: string;
  status?: (typeof EVENT_STATUSES)[number];
}
const eventsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/events',
  validateSearch: (search: Record<string, unknown>): EventsSearch => ({
    venue: text(search.venue),
    status: EVENT_STATUSES.find((status) => status === search.status),
  }),
  component: EventsPage,
});
const eventRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/events/$eventId',
  validateSearch: venueSearch,
  component: EventPage,
});

// Webhooks: the account's endpoints, their secrets and delivery logs (operators.settings).
const WebhooksPage = lazy(() => import('./webhooks/WebhooksPage'));
const webhooksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/webhooks',
  validateSearch: venueSearch,
  component: WebhooksPage,
});

// The audit log: who changed what in the account (operators.audit).
const AuditPage = lazy(() => import('./audit/AuditPage'));
const auditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/audit-log',
  validateSearch: venueSearch,
  component: AuditPage,
});

// The invitation link: opened without a session (the shell shows it instead of the sign-in form).
const InvitationPage = lazy(() => import('./team/InvitationPage'));
const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invitation',
  validateSearch: (search: Record<string, unknown>): { token?: string } => ({
    token: typeof search.token === 'string' && search.token.length > 0 && search.token.length <= 200 ? search.token : undefined,
  }),
  component: InvitationPage,
});

// Promoters: the venue's promoters and their submissions; a promoter's own events (the promoter shell
// shows only this); a venue's promoter invitation link and promoter sign-up (both opened without a session).
const PromotersPage = lazy(() => import('./promoters/PromotersPage'));
const promotersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/promoters',
  validateSearch: venueSearch,
  component: PromotersPage,
});
const PromoterHome = lazy(() => import('./promoters/PromoterHome'));
const promoterRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/promoter',
  validateSearch: (search: Record<string, unknown>): { event?: string } => ({ event: text(search.event) }),
  component: PromoterHome,
});
const PromoterInvitationPage = lazy(() => import('./promoters/PromoterInvitationPage'));
const promoterInvitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/promoter-invitation',
  validateSearch: (search: Record<string, unknown>): { token?: string } => ({
    token: typeof search.token === 'string' && search.token.length > 0 && search.token.length <= 200 ? search.token : undefined,
  }),
  component: PromoterInvitationPage,
});
const PromoterSignUpPage = lazy(() => import('./promoters/PromoterSignUpPage'));
const promoterSignUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/promoter-sign-up',
  component: PromoterSignUpPage,
});

export const router = createRouter({
  routeTree: rootRoute.addChildren([
    indexRoute,
    floorRoute,
    doorRoute,
    waitlistRoute,
    setupRoute,
    setupVenueRoute,
    setupPayoutsRoute,
    setupAvailabilityRoute,
    setupCatalogueRoute,
    floorplanRoute,
    setupBrandingRoute,
    guestsRoute,
    guestRoute,
    teamRoute,
    vouchersRoute,
    membershipsRoute,
    numbersRoute,
    eventsRoute,
    eventRoute,
    invitationRoute,
    webhooksRoute,
    auditRoute,
    promotersRoute,
    promoterRoute,
    promoterInvitationRoute,
    promoterSignUpRoute,
  ]),
  basepath: '/app',
  defaultNotFoundComponent: () => (
    <main className="page" id="main">
      <h1>Page not found</h1>
      <p>
        <a href="/app/floor">Go to the floor</a>
      </p>
    </main>
  ),
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

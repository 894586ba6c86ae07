/**
 * The composition root: every module service is created here, once, with explicit dependencies, and
 * every route plugin is registered with the services it uses. A module reaches another only through
 * that module's index (its services, and the few read functions others need) — never its tables.
 * Cross-module references and copy-from scopes are registered into the two shared registries.
 */
import { kyselyOf } from '../db/transaction.js';
import { createAudit } from '../platform/audit.js';
import { createGuard } from '../platform/auth-guard.js';
import type { Infra } from '../platform/infra.js';
import type { App } from '../platform/module.js';
import { CopyScopes } from '../platform/copy-scopes.js';
import { References } from '../platform/references.js';
import { domainEvents } from '../platform/domain-events.js';
import { createSecretBox } from '../platform/secret-box.js';
import { accountRoutes, createAccountService, createSignIn } from './account/index.js';
import { smsInboundRoutes } from '../platform/sms/inbound.routes.js';
import { auditRoutes, createAuditService, insertAuditEntry } from './audit/index.js';
import { authRoutes, createAuthService, createSessions } from './auth/index.js';
import { createAvailabilityModule, availabilityRoutes } from './availability/index.js';
import { bundlesPublicRoutes, catalogueRoutes, createCatalogueModule } from './catalogue/index.js';
import { copyFromRoutes, createCopyFromService } from './copy-from/index.js';
import { createEventsModule, eventsPublicRoutes, eventsRoutes, ticketTypesRoutes } from './events/index.js';
import { createGuestsService, guestsRoutes } from './guests/index.js';
import { activeAgreement, createPromotersService, promotersRoutes, recordPromoterRefund } from './promoters/index.js';
import { createMembershipFulfiller, createMembershipsService, membershipsRoutes } from './memberships/index.js';
import { billingEntriesForBookings, createPayments, paymentsRoutes } from './payments/index.js';
import { createProfilesModule, listProfiles, loadAdmissionRules, profilesRoutes, toProfile } from './profiles/index.js';
import {
  anonymiseGuestBookings,
  bookingsRoutes,
  coBookings,
  createBookingsModule,
  distinctGuests,
  eventBooking,
  guestBookingActivity,
  guestBookingFigures,
  guestBookings,
  guestVisits,
  hasUpcomingBookings,
  tablesTakenBetween,
  venueBookingFigures,
} from './bookings/index.js';
import { createTablesModule, tablesRoutes } from './tables/index.js';
import { createTeamServices, operatorContact, paymentConnectStatus, roleGrant, setPaymentConnectStatus, teamRoutes } from './team/index.js';
import {
  brandingRoutes,
  createBrandingService,
  createVenuesService,
  findVenue,
  liveVenue,
  operatorOfVenue,
  queueCopyScope,
  venueIdsOf,
  venueLook,
  venueSummaries,
  venueZones,
  venuesPublicRoutes,
  venueFinder,
  venuesRoutes,
} from './venues/index.js';
import { anonymiseGuestVouchers, createVouchersModule, guestVouchers, voucherPurchaseRoutes, vouchersRoutes } from './vouchers/index.js';
import { portalBuildLoader, portalRoutes } from './portal/index.js';
import { createWebhooksModule, recordWebhookEvent, webhooksRoutes } from './webhooks/index.js';
import { createWaitlistModule, waitlistPublicRoutes, waitlistRoutes } from './waitlist/index.js';
import { createWidgetPages, widgetBuildLoader, widgetRoutes } from './widgets/index.js';

export function composeModules(infra: Infra) {
  const { config, db, clock, log, rateLimits, uploads, botCheck } = infra;
  const references = new References();
  const copyScopes = new CopyScopes();
  // The audit log's writer (platform/audit.ts) inserts through the audit module, which owns the table.
  const audit = createAudit({ clock, insert: insertAuditEntry });
  const auditLog = createAuditService({ db, venueNames: (operatorId, venueIds) => venueSummaries(db, operatorId, venueIds) });

  const sessions = createSessions({ db, clock, ttlHours: config.sessionTtlHours, maxDays: config.sessionMaxDays });
  const access = createGuard({
    verifySession: (tokenHash, known) => sessions.verifyHash(tokenHash, known),
    roleGrant: (operatorId, roleId) => roleGrant(db, operatorId, roleId),
    findVenue: venueFinder(db, db.changes, clock),
    venueIds: (operatorId) => venueIdsOf(db, operatorId),
  });

  const payments = createPayments({
    config,
    db,
    clock,
    log,
    memberships: createMembershipFulfiller({ db, clock, log }),
    accounts: {
      contact: (operatorId) => operatorContact(db, operatorId),
      connectStatus: (operatorId) => paymentConnectStatus(db, operatorId),
      setConnectStatus: (operatorId, status, now) => setPaymentConnectStatus(db, operatorId, status, now),
    },
  });

  const memberships = createMembershipsService({
    db,
    clock,
    payments,
    publicBaseUrl: config.publicBaseUrl,
    liveVenue,
    operatorName: async (conn, operatorId) => (await operatorContact(conn, operatorId))?.name,
  });

  const secrets = createSecretBox({ db, clock, configuredKey: config.secretsKey });
  const auth = createAuthService({ db, clock, rateLimits, sessions, botCheck, secrets, mail: infra.mail });
  const venues = createVenuesService({
    db,
    clock,
    uploads,
    access,
    bookings: { hasUpcomingBookings, venueBookingFigures, distinctGuests },
    audit,
  });
  const team = createTeamServices({
    db,
    clock,
    sessions,
    mail: infra.mail,
    publicBaseUrl: config.publicBaseUrl,
    payouts: payments,
    reachableVenueIds: access.reachableVenueIds,
    accountStats: venues.accountStats,
    audit,
  });
  const branding = createBrandingService({
    db,
    clock,
    uploads,
    publicBaseUrl: config.publicBaseUrl,
    publishableKey: payments.publishableKey,
    turnstileSiteKey: botCheck.siteKey,
  });
  copyScopes.register(queueCopyScope);

  const shared = { db, clock, references, copyScopes, audit };
  const tables = createTablesModule({ ...shared, booked: tablesTakenBetween });
  const availability = createAvailabilityModule({ ...shared, uploads, publicBaseUrl: config.publicBaseUrl });
  const profiles = createProfilesModule(shared);
  const catalogue = createCatalogueModule({ ...shared, uploads });
  const copies = createCopyFromService({ db, clock, access, scopes: copyScopes });
  const guests = createGuestsService({
    db,
    clock,
    audit,
    reachableVenue: access.reachableVenue,
    sources: {
      reachableVenueIds: access.reachableVenueIds,
      venueNames: (operatorId, venueIds) => venueSummaries(db, operatorId, venueIds),
      bookings: guestBookings,
      figures: guestBookingFigures,
      bookingActivity: guestBookingActivity,
      coBookings,
      anonymiseBookings: anonymiseGuestBookings,
      vouchers: guestVouchers,
      anonymiseVouchers: anonymiseGuestVouchers,
      billing: (conn, userId, bookingIds) => billingEntriesForBookings(kyselyOf(conn), userId, bookingIds),
      membership: memberships.crmMembership,
    },
  });
  // Admission rules see a member's perk tags as guest tags while the membership runs (docs/memberships.md).
  const admissionFacts: typeof guests.admissionFacts = async (conn, operatorId, venueId, userId) => {
    const [facts, perks] = await Promise.all([
      guests.admissionFacts(conn, operatorId, venueId, userId),
      memberships.perkTags(conn, operatorId, userId),
    ]);
    return perks.length === 0 ? facts : { ...facts, tags: [...new Set([...facts.tags, ...perks])].sort() };
  };
  const bookings = createBookingsModule({
    db,
    clock,
    log,
    payments,
    mail: infra.mail,
    botCheck,
    rateLimits,
    secrets,
    publicBaseUrl: config.publicBaseUrl,
    answerCacheMs: config.availabilityCacheMs,
    liveVenue,
    findVenue,
    venueLook: (venue) => venueLook(db, venue),
    reachableVenue: access.reachableVenue,
    venueById: async (venueId) => {
      const operatorId = await operatorOfVenue(db, venueId);
      return operatorId ? findVenue(db, operatorId, venueId) : undefined;
    },
    admissionFacts,
    sms: infra.sms,
    audit,
  });

  const vouchers = createVouchersModule({
    db,
    clock,
    log,
    mail: infra.mail,
    payments,
    rateLimits,
    botCheck,
    audit,
    venues: {
      settings: (venueId) => branding.voucherSettings(venueId),
      saveSettings: (venueId, settings, conn) => branding.saveVoucherSettings(venueId, settings, conn),
      sisters: (auth, venue) => venues.sisters(auth, venue),
      names: (operatorId, venueIds) => venueSummaries(db, operatorId, venueIds),
      liveVenue,
      findVenue,
    },
  });

  // Outbound webhooks hear every domain event (their outbox rows are written in the change's transaction).
  domainEvents.on('webhooks', recordWebhookEvent);
  // The promoter ledger hears event bookings end: the refund recorded with a cancellation or a door reject
  // writes the promoter's refund row in that same transaction. Stateless, like every listener.
  domainEvents.on('promoter-refunds', async (conn, event) => {
    if (!event.type.startsWith('booking.') || event.data.kind !== 'event') return;
    if (event.data.status !== 'cancelled' && event.data.status !== 'door_rejected') return;
    await recordPromoterRefund(conn, String(event.data.id), event.at, async (c, id) => (await eventBooking(c, id))?.refunded_pence ?? 0);
  });
  const webhooks = createWebhooksModule({
    db,
    clock,
    log,
    secrets,
    mail: infra.mail,
    transport: config.webhooks,
    allowPrivate: config.webhooks.allowPrivate,
    publicBaseUrl: config.publicBaseUrl,
    contact: operatorContact,
    venueIds: (operatorId) => venueIdsOf(db, operatorId),
  });

  // The waitlist books only through the bookings module's own paths (walk-ins: staff; offers: public).
  // Text messages are optional: without them the waitlist tells guests by mail.
  const waitlist = createWaitlistModule({
    db,
    clock,
    log,
    mail: infra.mail,
    botCheck,
    rateLimits,
    publicBaseUrl: config.publicBaseUrl,
    offerMinutes: config.waitlistOfferMinutes,
    textMessages: infra.sms,
    linkSecret: (conn) => bookings.doorKeys.manageSecret(conn),
    liveVenue,
    availability: (venueId, query) => bookings.publicBookings.availability(venueId, query),
    book: (venueId, body, request) => bookings.publicBookings.book(venueId, body, request),
    seatWalkIn: (auth, venue, body, key) => bookings.staffBookings.createTableBooking(auth, venue, body, key),
  });

  const widgetPages = createWidgetPages({ widgetPage: (publicId) => branding.widgetPage(publicId), build: widgetBuildLoader(), clock });

  const events = createEventsModule({
    db,
    clock,
    log,
    references,
    uploads,
    payments,
    mail: infra.mail,
    botCheck,
    rateLimits,
    eventBookings: bookings.eventBookings,
    imageSearch: { accessKey: config.unsplashAccessKey, apiBase: config.unsplashApiBase },
    reachableVenue: access.reachableVenue,
    reachableVenueIds: access.reachableVenueIds,
    venueNames: (operatorId, venueIds) => venueSummaries(db, operatorId, venueIds),
    liveVenue,
    findVenue,
    doorKey: (venueId) => bookings.doorKeys.keyOf(venueId),
    ticketProfiles: async (conn, venueId) => (await listProfiles(conn, venueId, 'ticket')).map(toProfile),
    eventBundles: async (venueId) =>
      (await catalogue.bundles.list(venueId)).filter((b) => b.applicable_profiles.length === 0 || b.applicable_profiles.includes('events')),
    eventsPolicy: async (venueId) => (await profiles.policies.getBookingPolicies(venueId)).events,
    admission: { rules: loadAdmissionRules, facts: admissionFacts, visits: guestVisits },
    accountVenue: (operatorId, venueId) => findVenue(db, operatorId, venueId),
    promoterVenue: async (promoterId, venueId) => {
      const agreement = await activeAgreement(db, promoterId, venueId);
      return agreement ? findVenue(db, agreement.operator_id, agreement.venue_id) : undefined;
    },
    // The promoters module is built from the events' organiser events; these run only once requests arrive.
    memberDiscountPct: memberships.ticketDiscountPct,
    ticketSold: (conn, sale) => promoters.recordSale(conn, sale),
    submissionDecided: (conn, event, decision, reason) => promoters.submissionDecided(conn, event, decision, reason),
  });

  const promoters = createPromotersService({
    db,
    clock,
    mail: infra.mail,
    rateLimits,
    sessions,
    publicBaseUrl: config.publicBaseUrl,
    organiser: events.organiser,
    venueNames: (operatorId, venueIds) => venueSummaries(db, operatorId, venueIds),
    liveVenue,
    accountVenue: (conn, operatorId, venueId) => findVenue(conn, operatorId, venueId),
  });

  const account = createAccountService({
    db,
    clock,
    publicBaseUrl: config.publicBaseUrl,
    payments,
    manageToken: (booking) => bookings.manage.tokenFor(booking),
    eraseEverywhere: guests.eraseEverywhere,
  });
  const signIn = createSignIn({ db, clock, rateLimits, sessions, mail: infra.mail });

  return {
    references,
    copyScopes,
    audit,
    auditLog,
    sessions,
    access,
    guard: access.guard,
    payments,
    auth,
    team,
    venues,
    branding,
    tables,
    availability,
    profiles,
    catalogue,
    copies,
    staff: bookings.staff,
    staffBookings: bookings.staffBookings,
    guestlist: bookings.guestlist,
    smartTables: bookings.smartTables,
    door: bookings.door,
    bookings: bookings.publicBookings,
    manageBookings: bookings.manage,
    reminders: bookings.reminders,
    vouchers,
    guests,
    events,
    webhooks,
    waitlist,
    promoters,
    memberships,
    widgetPages,
    account,
    signIn,
  };
}

export type Modules = ReturnType<typeof composeModules>;

export async function registerModules(app: App, ctx: Infra & Modules): Promise<void> {
  const { guard } = ctx;
  await app.register(authRoutes, { guard, auth: ctx.auth, sessions: ctx.sessions });
  await app.register(teamRoutes, { guard, ...ctx.team });
  await app.register(auditRoutes, { guard, audit: ctx.auditLog });
  await app.register(venuesRoutes, { guard, venues: ctx.venues });
  await app.register(brandingRoutes, { guard, branding: ctx.branding });
  await app.register(venuesPublicRoutes, { branding: ctx.branding });
  await app.register(paymentsRoutes, { guard, payments: ctx.payments, log: ctx.log });
  await app.register(availabilityRoutes, { guard, ...ctx.availability });
  await app.register(tablesRoutes, { guard, ...ctx.tables });
  await app.register(profilesRoutes, { guard, ...ctx.profiles });
  await app.register(catalogueRoutes, { guard, ...ctx.catalogue });
  await app.register(bundlesPublicRoutes, {
    bundles: ctx.catalogue.bundles,
    isLiveVenue: async (venueId) => (await liveVenue(ctx.db, venueId)) !== undefined,
  });
  await app.register(copyFromRoutes, { guard, copies: ctx.copies });
  await app.register(bookingsRoutes, {
    guard,
    bookings: {
      staff: ctx.staff,
      staffBookings: ctx.staffBookings,
      guestlist: ctx.guestlist,
      door: ctx.door,
      smartTables: ctx.smartTables,
      publicBookings: ctx.bookings,
      manage: ctx.manageBookings,
      reminders: ctx.reminders,
    },
    floors: (venueId) => ctx.tables.floors.list(venueId),
    loadAuth: (request) => ctx.access.loadAuth(request),
    live: { changes: ctx.liveChanges, pingMs: ctx.config.liveStream.pingMs },
    floorVenues: {
      clock: ctx.clock,
      venues: async (auth) => venueZones(ctx.db, auth.operatorId!, await ctx.access.reachableVenueIds(auth)),
    },
    db: ctx.db,
  });
  await app.register(vouchersRoutes, { guard, vouchers: ctx.vouchers.vouchers });
  await app.register(voucherPurchaseRoutes, { purchases: ctx.vouchers.purchases });
  await app.register(guestsRoutes, { guard, guests: ctx.guests });
  await app.register(membershipsRoutes, { guard, memberships: ctx.memberships });
  await app.register(eventsRoutes, { guard, ...ctx.events });
  await app.register(ticketTypesRoutes, { guard, ticketTypes: ctx.events.ticketTypes });
  await app.register(promotersRoutes, { guard, promoters: ctx.promoters });
  await app.register(eventsPublicRoutes, { sales: ctx.events.sales, loadAuth: (request) => ctx.access.loadAuth(request) });
  await app.register(accountRoutes, { guard, account: ctx.account, signIn: ctx.signIn });
  await app.register(webhooksRoutes, { guard, webhooks: ctx.webhooks.webhooks });
  await app.register(smsInboundRoutes, { db: ctx.db, clock: ctx.clock, config: ctx.config });
  await app.register(waitlistRoutes, { guard, walkIns: ctx.waitlist.walkIns });
  await app.register(waitlistPublicRoutes, { online: ctx.waitlist.online });
  await app.register(widgetRoutes, { pages: ctx.widgetPages });
  await app.register(portalRoutes, { build: portalBuildLoader(), clock: ctx.clock });
}

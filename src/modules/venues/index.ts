/**
 * The venues module: venues with their status and listing, stats, sister links and logo, branding and
 * widgets, and the public widget configs (its tables: venues, venue_sisters, venue_branding,
 * widget_settings, widget_themes, voucher_settings).
 */
export { brandingRoutes } from './branding.routes.js';
export { venueLook } from './branding.rows.js';
/** The gift-voucher settings record's shape (the vouchers module's settings routes answer it). */
export { VoucherSettings } from './branding.schemas.js';
export { createBrandingService } from './branding.service.js';
export { queueCopyScope } from './venues.copy.js';
export { venuesPublicRoutes } from './venues.public-routes.js';
export {
  findVenue,
  guestVenueCards,
  liveVenue,
  operatorOfVenue,
  setBookable,
  venueIdsOf,
  venueSummaries,
  venueZones,
} from './venues.repository.js';
export { venueFinder } from './venue-finder.js';
export { venuesRoutes } from './venues.routes.js';
export { createVenuesService } from './venues.service.js';

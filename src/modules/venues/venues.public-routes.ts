/**
 * Public widget configurations (no auth), edge-cacheable with an ETag. Unknown and draft venues are
 * 404: a draft venue is not public. The widget pages themselves live at `/widget/:publicId`.
 */
import { publicCache } from '../../platform/cache.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { BookingWidgetConfig, ComboWidgetConfig, EventsWidgetConfig, PublicVenueParams, VoucherConfig } from './branding.schemas.js';
import type { BrandingService } from './branding.service.js';

const CACHE_SECONDS = 60;

export const venuesPublicRoutes: RoutePlugin<{ branding: BrandingService }> = async (app, { branding }) => {
  const tags = ['public'];
  const options = { config: { etag: true } };

  // Decided when the response leaves, by its final status (after the ETag hook may have made it a 304):
  // only a config may sit in an edge cache. Errors say `no-store` outright, because a 404 without
  // directives is heuristically cacheable, and a venue that goes live must not stay "not found" at
  // the edge; a failure after the handler (serialisation, maintenance) never inherits a public header.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 200 || reply.statusCode === 304) publicCache(reply, CACHE_SECONDS);
    else reply.header('Cache-Control', 'no-store');
    return payload;
  });

  app.get(
    '/api/public/venues/:venueId/booking-widget-config',
    {
      ...options,
      schema: {
        summary: "A venue's public booking-widget configuration",
        tags,
        params: PublicVenueParams,
        response: { 200: BookingWidgetConfig, ...errorResponses(404) },
      },
    },
    async (request) => branding.bookingWidgetConfig(request.params.venueId),
  );

  app.get(
    '/api/public/venues/:venueId/events-widget-config',
    {
      ...options,
      schema: {
        summary: "A venue's public events-widget configuration",
        tags,
        params: PublicVenueParams,
        response: { 200: EventsWidgetConfig, ...errorResponses(404) },
      },
    },
    async (request) => branding.eventsWidgetConfig(request.params.venueId),
  );

  app.get(
    '/api/public/venues/:venueId/voucher-config',
    {
      ...options,
      schema: {
        summary: "A venue's public gift-voucher configuration",
        tags,
        description: 'Gift-voucher settings (defaults where the venue has none) and keys; `widget.enabled` needs vouchers on too.',
        params: PublicVenueParams,
        response: { 200: VoucherConfig, ...errorResponses(404) },
      },
    },
    async (request) => branding.voucherConfig(request.params.venueId),
  );

  app.get(
    '/api/public/venues/:venueId/combo-widget-config',
    {
      ...options,
      schema: {
        summary: "A venue's public combo-widget configuration",
        tags,
        description: 'Which widgets are on and their `{base_url}/widget/<public_id>` links (null when off).',
        params: PublicVenueParams,
        response: { 200: ComboWidgetConfig, ...errorResponses(404) },
      },
    },
    async (request) => branding.comboWidgetConfig(request.params.venueId),
  );
};

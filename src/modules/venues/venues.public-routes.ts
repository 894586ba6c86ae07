/**
 * Public widget configurations (no auth), edge-cacheable with an ETag. Unknown and draft venues are
 * 404: a draft venue is not public. The widget pages themselves live at `/widget/:publicId`.
 */
import type { FastifyReply } from 'fastify';
import { publicCache } from '../../platform/cache.js';
import { errorResponses } from '../../platform/http.js';
import type { ModulePlugin } from '../../platform/module.js';
import { BookingWidgetConfig, ComboWidgetConfig, EventsWidgetConfig, PublicVenueParams, VoucherConfig } from './branding.schemas.js';
import { createBrandingService } from './branding.service.js';

const CACHE_SECONDS = 60;

export const venuesPublicRoutes: ModulePlugin = async (app, { ctx }) => {
  const branding = createBrandingService(ctx);
  const tags = ['public'];
  const options = { config: { etag: true } };

  async function cached<T>(reply: FastifyReply, body: Promise<T>): Promise<T> {
    const result = await body;
    publicCache(reply, CACHE_SECONDS);
    return result;
  }

  app.get(
    '/api/public/venues/:venueId/booking-widget-config',
    { ...options, schema: { tags, params: PublicVenueParams, response: { 200: BookingWidgetConfig, ...errorResponses(404) } } },
    async (request, reply) => cached(reply, branding.bookingWidgetConfig(request.params.venueId)),
  );

  app.get(
    '/api/public/venues/:venueId/events-widget-config',
    { ...options, schema: { tags, params: PublicVenueParams, response: { 200: EventsWidgetConfig, ...errorResponses(404) } } },
    async (request, reply) => cached(reply, branding.eventsWidgetConfig(request.params.venueId)),
  );

  app.get(
    '/api/public/venues/:venueId/voucher-config',
    {
      ...options,
      schema: {
        tags,
        description: 'Gift-voucher settings (defaults where the venue has none) and keys; `widget.enabled` needs vouchers on too.',
        params: PublicVenueParams,
        response: { 200: VoucherConfig, ...errorResponses(404) },
      },
    },
    async (request, reply) => cached(reply, branding.voucherConfig(request.params.venueId)),
  );

  app.get(
    '/api/public/venues/:venueId/combo-widget-config',
    {
      ...options,
      schema: {
        tags,
        description: 'Which widgets are on and their `{base_url}/widget/<public_id>` links (null when off).',
        params: PublicVenueParams,
        response: { 200: ComboWidgetConfig, ...errorResponses(404) },
      },
    },
    async (request, reply) => cached(reply, branding.comboWidgetConfig(request.params.venueId)),
  );
};

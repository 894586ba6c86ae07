/** A booking's QR code for the guest: GET /api/public/venues/:venueId/booking/:bookingId/qr (qr.service.ts). */
import { Type } from 'typebox';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { noStore, tags } from './public-routes.helpers.js';
import { Id, Qr } from './public.schemas.js';
import type { PublicBookings } from './public.service.js';

export const qrRoutes: RoutePlugin<{ bookings: Pick<PublicBookings, 'qr'> }> = async (app, { bookings }) => {
  app.get(
    '/api/public/venues/:venueId/booking/:bookingId/qr',
    {
      schema: {
        summary: "A booking's QR code: a short-lived token signed with the venue's key",
        description: 'Refresh after `expires_in_ms`. Cancelled, rejected and expired bookings have none (404).',
        tags,
        params: Type.Object({ venueId: Id, bookingId: Id }),
        response: { 200: Qr, ...errorResponses(404) },
      },
      onRequest: noStore,
    },
    async (request) => bookings.qr(request.params.venueId, request.params.bookingId),
  );
};

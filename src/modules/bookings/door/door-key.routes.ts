/** The venue's public key for checking QR tokens offline: GET /api/my-venues/:venueId/door-key (door-keys in ../core/). */
import { Type } from 'typebox';
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { venueOf } from '../../../platform/auth-guard.js';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import type { DoorService } from './door.service.js';

const VenueParams = Type.Object({ venueId: Type.String({ minLength: 1, maxLength: 100 }) });

export const doorKeyRoutes: RoutePlugin<{ guard: GuardFactory; door: DoorService }> = async (app, { guard, door }) => {
  app.get(
    '/api/my-venues/:venueId/door-key',
    {
      schema: {
        summary: "The venue's public key for checking booking QR tokens offline",
        description: 'Ed25519: `public_key` is the raw 32-byte key (base64url), `public_key_pem` the SPKI PEM.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: VenueParams,
        response: {
          200: Type.Object({ algorithm: Type.Literal('Ed25519'), public_key: Type.String(), public_key_pem: Type.String() }),
          ...errorResponses(401, 403, 404),
        },
      },
      onRequest: guard({ permission: 'bookings:read', venueParam: 'venueId' }),
    },
    async (request) => door.doorKey(venueOf(request).id),
  );
};

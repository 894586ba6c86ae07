/**
 * The venues whose reservation floor the caller can open (an extension beyond the spec, for the
 * operator portal): gated by `bookings:read` alone, so a host or door role without the venue settings
 * permission (which `GET /api/my-venues` needs) can still pick a venue and learn its time zone and today.
 */
import { Type } from 'typebox';
import { localToday } from '../../../domain/venue-time.js';
import type { AuthInfo, GuardFactory } from '../../../platform/auth-guard.js';
import { authOf } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';

export interface FloorVenueRow {
  id: string;
  name: string;
  status: string;
  timezone: string;
}

const FloorVenues = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        status: Type.String(),
        timezone: Type.String({ description: 'IANA time zone: every date and time of the venue is in it' }),
        today: Type.String({ description: 'the venue’s calendar date now (YYYY-MM-DD), venue-local' }),
      }),
    ),
    now: Type.String({ description: 'the server’s time now (ISO 8601 UTC), for the floor’s now line' }),
  },
  { description: 'The venues by name, with their zones and today' },
);

export const floorVenuesRoutes: RoutePlugin<{
  guard: GuardFactory;
  clock: Clock;
  /** The venues the caller can reach (its account's, within its role's venue scope). */
  venues: (auth: AuthInfo) => Promise<FloorVenueRow[]>;
}> = async (app, { guard, clock, venues }) => {
  app.get(
    '/api/my-floor-venues',
    {
      schema: {
        summary: 'Venues whose reservation floor the caller can open',
        description:
          'Extension (operator portal). The venues of the caller’s account within its role’s venue scope, by name, each with its ' +
          '`timezone` and `today` (venue-local), and the server’s `now`. Needs `bookings` read only (`GET /api/my-venues` needs ' +
          'the venue settings permission).',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        response: { 200: FloorVenues, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: 'bookings:read' }),
    },
    async (request) => {
      const now = clock.now();
      const rows = await venues(authOf(request));
      return { data: rows.map((v) => ({ ...v, today: localToday(now, v.timezone) })), now: now.toISOString() };
    },
  );
};

/**
 * The venues the caller may work on (an extension beyond the spec, for the operator portal's venue
 * switcher): any portal user of the account, whatever their role grants, within the role's venue scope,
 * so a host, door, events or vouchers role without the venue settings permission (which
 * `GET /api/my-venues` needs) can still pick a venue and learn its time zone and today. It names the
 * venues and their zones only; what the caller may do at each is for each page's own permission.
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
        summary: 'Venues the caller may work on (the portal’s venue switcher)',
        description:
          'Extension (operator portal). The venues of the caller’s account within its role’s venue scope, by name, each with its ' +
          '`timezone` and `today` (venue-local), and the server’s `now`. Any portal user of the account may ask, whatever their ' +
          'role grants (`GET /api/my-venues` needs the venue settings permission).',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        response: { 200: FloorVenues, ...errorResponses(401, 403) },
      },
      onRequest: guard(),
    },
    async (request) => {
      const now = clock.now();
      const rows = await venues(authOf(request));
      return { data: rows.map((v) => ({ ...v, today: localToday(now, v.timezone) })), now: now.toISOString() };
    },
  );
};

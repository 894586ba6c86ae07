/** Rows of the roster as the API answers them (spec: Guest (roster)), built a page at a time. */
import type { Conn } from '../../db/transaction.js';
import type { GuestRow } from './guests.schemas.js';
import { rosterVenues, type GuestScope } from './roster.repository.js';
import { rosterProfiles } from './roster.js';
import { EMPTY_FIGURES, loyaltyPoints } from './score.js';
import type { CrmFigures, GuestSources } from './sources.js';

export type GuestProfile = Awaited<ReturnType<typeof rosterProfiles>>[number];

export function toGuest(profile: GuestProfile, figures: CrmFigures, venueIds: readonly string[]): GuestRow {
  return {
    id: profile.id,
    name: profile.name,
    email: profile.email,
    phone: profile.phone ?? '',
    membership_tier: profile.membership_tier ?? '',
    loyalty_points: loyaltyPoints(figures),
    successful_visits: figures.visits,
    venue_ids: venueIds.join(','),
    profile_image_url: profile.profile_image_url,
  };
}

/** The guests `userIds` (in that order; ids that are no guest are left out), with their figures in the scope. */
export async function guestRows(
  conn: Conn,
  sources: Pick<GuestSources, 'figures'>,
  scope: GuestScope,
  userIds: readonly string[],
): Promise<GuestRow[]> {
  if (userIds.length === 0) return [];
  const [profiles, figures, venues] = await Promise.all([
    rosterProfiles(conn, scope.operatorId, userIds),
    sources.figures(conn, scope.operatorId, scope.venueIds, userIds),
    rosterVenues(conn, scope, userIds),
  ]);
  const byId = new Map(profiles.map((p) => [p.id, p]));
  return userIds.flatMap((id) => {
    const profile = byId.get(id);
    return profile ? [toGuest(profile, figures.get(id) ?? EMPTY_FIGURES, venues.get(id) ?? [])] : [];
  });
}

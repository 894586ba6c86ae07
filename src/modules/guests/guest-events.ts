/** The roster's domain events (platform/domain-events.ts; the webhooks' `guest.updated`, docs/webhooks.md). */
import type { DomainEvent } from '../../platform/domain-events.js';

/** A guest's tags at one scope were replaced (operator-wide: venue null). */
export function guestTagsEvent(
  change: { operatorId: string; userId: string; venueId: string | null; scope: string; tags: string[]; added: string[]; removed: string[] },
  at: Date,
): DomainEvent {
  return {
    type: 'guest.updated',
    operatorId: change.operatorId,
    venueId: change.venueId,
    at: at.toISOString(),
    data: {
      object: 'guest',
      id: change.userId,
      change: 'tags',
      scope: change.scope,
      venue_id: change.venueId,
      tags: change.tags,
      added: change.added,
      removed: change.removed,
    },
  };
}

/**
 * The events screens' reads (one query each, under `['events', …]`) and the words they show for the
 * API's values: `approved` is what the operator calls "Published".
 */
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, call } from '../api/client';

export const eventsKey = (venueId: string) => ['events', 'venue', venueId];
export const eventKey = (eventId: string) => ['events', 'event', eventId];

const PAGE = 100;

/** Every event of the venue, by date (the list is paged; a venue's events fit in a few pages). */
export function useVenueEvents(venueId: string) {
  return useQuery({
    queryKey: eventsKey(venueId),
    queryFn: async () => {
      const all = [];
      for (let offset = 0; ; offset += PAGE) {
        const page = await call(
          api.GET('/api/my-venues/{id}/events', { params: { path: { id: venueId }, query: { limit: PAGE, offset } } }),
        );
        all.push(...page.data);
        if (!('has_more' in page) || !page.has_more || page.data.length === 0) return all;
      }
    },
  });
}

const id = (eventId: string) => ({ params: { path: { id: eventId } } });

export function useEvent(eventId: string) {
  return useQuery({
    queryKey: [...eventKey(eventId), 'event'],
    queryFn: async () => (await call(api.GET('/api/my-events/{id}', id(eventId)))).data,
  });
}

export function useTicketTypes(eventId: string) {
  return useQuery({
    queryKey: [...eventKey(eventId), 'ticket-types'],
    queryFn: async () => (await call(api.GET('/api/my-events/{eventId}/ticket-types', { params: { path: { eventId } } }))).data,
  });
}

export function useStats(eventId: string) {
  return useQuery({
    queryKey: [...eventKey(eventId), 'stats'],
    queryFn: () => call(api.GET('/api/my-events/{id}/stats', id(eventId))),
  });
}

export function useDoorList(eventId: string) {
  return useQuery({
    queryKey: [...eventKey(eventId), 'door'],
    queryFn: async () => (await call(api.GET('/api/my-events/{id}/bookings', id(eventId)))).data,
  });
}

/** The venue's ticket profiles and admission groups a ticket type may point at (`profiles` read), when `enabled`. */
export function useTicketLinks(venueId: string, enabled: boolean) {
  const path = { params: { path: { venueId } } };
  return useQuery({
    queryKey: ['setup', venueId, 'ticket-links'],
    enabled,
    queryFn: async () => {
      const [profiles, groups] = await Promise.all([
        call(api.GET('/api/my-venues/{venueId}/ticket-profiles', path)),
        call(api.GET('/api/my-venues/{venueId}/admission-groups', path)),
      ]);
      return {
        profiles: profiles.data.map((p) => ({ id: p.id, name: p.name })),
        groups: groups.data.map((g) => ({ id: g.id, name: g.name })),
      };
    },
  });
}

export type TicketType = NonNullable<ReturnType<typeof useTicketTypes>['data']>[number];
export type DoorRow = NonNullable<ReturnType<typeof useDoorList>['data']>[number];
export type EventRecord = NonNullable<ReturnType<typeof useEvent>['data']>;

export const STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  approved: 'Published',
  pending_venue_approval: 'Submitted',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};
export const statusWord = (status: string) => STATUS_WORDS[status] ?? status.replace(/_/g, ' ');

export const LISTING_WORDS: Record<string, string> = { none: 'Not listed', pending: 'Listing requested', listed: 'Listed' };

/** A venue-local date (`2026-06-15`) for people: "Mon 15 Jun 2026". */
export function dateWords(date: string) {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

/** An event type as stored (`club_night`) for people: "Club night". */
export const typeWords = (type: string) => (type.charAt(0).toUpperCase() + type.slice(1)).replace(/_/g, ' ');

/** The clock times of an event: "21:00–02:00", "from 21:00" or "". */
export function timesWords(event: { start_time: string | null; end_time: string | null }) {
  if (event.start_time && event.end_time) return `${event.start_time}–${event.end_time}`;
  if (event.start_time) return `from ${event.start_time}`;
  return '';
}

/** A same-day clash the API answered (409 with `conflict`), with the clashing event to link to. */
export class ClashError extends ApiError {
  constructor(
    message: string,
    readonly conflict: { event_id: string; name: string },
  ) {
    super(409, message);
  }
}

/** Like `call`, but a 409 naming a clashing event becomes a ClashError carrying it. */
export async function callOrClash<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const answer = await pending;
  const error = answer.error as { error?: string; conflict?: { event_id: string; name: string } } | undefined;
  if (answer.response.status === 409 && error?.conflict)
    throw new ClashError(error.error ?? 'Another event holds that date', error.conflict);
  return call(Promise.resolve(answer));
}

/**
 * The reservation floor's live stream (decisions: Live floor stream; an extension beyond the spec):
 * `GET /api/my-venues/:venueId/changes` answers `text/event-stream` for as long as the client reads it,
 * sending `event: bookings` whenever the venue's bookings, blocks or table assignments change (on any
 * instance: platform/live-changes.ts) and a `: ping` comment every LIVE_STREAM_PING_MS. The client then
 * refetches what it shows; the events carry no booking data, so a stream never shows more than the
 * caller's reads would.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { operatorIdOf, venueOf } from '../../../platform/auth-guard.js';
import { errorResponses } from '../../../platform/http.js';
import type { LiveChanges } from '../../../platform/live-changes.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { VenueBookingsParams } from './bookings.schemas.js';

const EventStream = {
  description:
    'A `text/event-stream` that stays open: `event: bookings` with `data: {"venue_id":"…"}` after the venue’s bookings, blocks ' +
    'or table assignments change (at most one per 250 ms), and a `: ping` comment line every 15 s',
  content: { 'text/event-stream': { schema: Type.String() } },
};

export const changesRoutes: RoutePlugin<{ guard: GuardFactory; live: LiveChanges; pingMs: number }> = async (
  app,
  { guard, live, pingMs },
) => {
  /** The open streams of this app, ended when it closes (a server waits for open responses). */
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get(
    '/api/my-venues/:venueId/changes',
    {
      schema: {
        summary: 'Follow the venue’s bookings as they change (server-sent events)',
        description:
          'Extension (staff reservation floor). Read with `fetch` and the bearer token (an `EventSource` cannot send it). After ' +
          'each `bookings` event, refetch the day (bookings, blocks, tables); the event names only the venue. A change the server ' +
          'cannot attribute to one venue is sent to every stream. Coalesced: at most one event per venue per 250 ms, sent after ' +
          'the change is committed, on whichever instance it was made. `: ping` comments keep proxies from closing an idle ' +
          'stream. At most `LIVE_STREAMS_PER_ACCOUNT` streams per account on one server instance (429 with `Retry-After` beyond), ' +
          'and `LIVE_STREAMS_MAX` per instance (503 with `Retry-After`). When the stream ends or cannot open, poll every 30 s.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: VenueBookingsParams,
        response: { 200: EventStream, ...errorResponses(401, 403, 404, 429, 503) },
      },
      onRequest: guard({ permission: 'bookings:read', venueParam: 'venueId' }),
    },
    async (request, reply) => {
      const venueId = venueOf(request).id;
      const stream = new PassThrough();
      const write = (text: string) => {
        if (!stream.destroyed && !stream.writableEnded) stream.write(text);
      };
      const event = `event: bookings\ndata: ${JSON.stringify({ venue_id: venueId })}\n\n`;
      // Refused (429/503) before any byte of the stream is sent.
      const subscription = live.subscribe(operatorIdOf(request), venueId, () => write(event));
      const ping = setInterval(() => write(': ping\n\n'), pingMs);
      const end = () => {
        if (!open.delete(end)) return;
        clearInterval(ping);
        subscription.close();
        stream.end();
      };
      open.add(end);
      // The client went away (or the response ended): the listener is released at once.
      reply.raw.on('close', end);
      stream.on('close', end);
      write(': connected\n\n');
      // The typed reply expects the schema's string; a stream is what a never-ending body is sent as.
      return (
        (reply as FastifyReply)
          .header('Content-Type', 'text/event-stream; charset=utf-8')
          .header('X-Accel-Buffering', 'no')
          // Never kept alive for another request: when the stream ends (the server shutting down) the
          // socket closes with it, so a graceful close does not wait out the keep-alive timeout.
          .header('Connection', 'close')
          .send(stream)
      );
    },
  );
};

/**
 * The floor's data: tables, areas, combinations, floors, blocks and the service day's bookings, fetched in
 * parallel (one query each, no waterfall), and kept fresh by the venue's change stream when the server has
 * one, else by polling (every 30 s and on window focus).
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call } from '../api/client';
import type { paths } from '../api/schema';
import { session } from '../api/session';
import { addDays } from './time';

type Json<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type Booking = Json<'/api/my-venues/{venueId}/bookings', 'get'>['data'][number];
export type Table = Json<'/api/my-venues/{venueId}/tables', 'get'>['data'][number];
export type Block = Json<'/api/my-venues/{venueId}/tables/blocks', 'get'>['data'][number];
export type Area = Json<'/api/my-venues/{venueId}/seating-areas', 'get'>['data'][number];
export type Floor = Json<'/api/my-venues/{venueId}/floors', 'get'>['data'][number];

export const floorKey = (venueId: string) => ['floor', venueId] as const;

/** Every booking of the service day (the date and the small hours of the next), page by page. */
async function dayBookings(venueId: string, date: string): Promise<Booking[]> {
  const all: Booking[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(
      api.GET('/api/my-venues/{venueId}/bookings', {
        params: {
          path: { venueId },
          query: { from: date, to: addDays(date, 1), paging: 'cursor', limit: 200, ...(cursor ? { cursor } : {}) },
        },
      }),
    );
    all.push(...page.data);
    cursor = 'cursor' in page && page.cursor ? page.cursor : undefined;
  } while (cursor);
  return all;
}

export function useFloorData(venueId: string, date: string, pollMs: number) {
  const key = floorKey(venueId);
  const path = { path: { venueId } };
  const options = { refetchInterval: pollMs, refetchOnWindowFocus: true } as const;
  const [tables, areas, combos, floors, blocks, bookings, shifts] = useQueries({
    queries: [
      { queryKey: [...key, 'tables'], queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables', { params: path })), ...options },
      { queryKey: [...key, 'areas'], queryFn: () => call(api.GET('/api/my-venues/{venueId}/seating-areas', { params: path })), ...options },
      {
        queryKey: [...key, 'combos'],
        queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables/combos', { params: path })),
        ...options,
      },
      { queryKey: [...key, 'floors'], queryFn: () => call(api.GET('/api/my-venues/{venueId}/floors', { params: path })), ...options },
      {
        queryKey: [...key, 'blocks'],
        queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables/blocks', { params: path })),
        ...options,
      },
      { queryKey: [...key, 'bookings', date], queryFn: () => dayBookings(venueId, date), ...options },
      {
        queryKey: [...key, 'shifts'],
        queryFn: () => call(api.GET('/api/my-venues/{venueId}/shifts', { params: path })),
        ...options,
        retry: false,
      },
    ],
  });
  return { tables, areas, combos, floors, blocks, bookings, shifts };
}

/**
 * Live updates: the venue's server-sent event stream (`GET /api/venues/{venueId}/changes`, bearer auth, so
 * read with fetch rather than EventSource); each `bookings` event refreshes the floor. When the stream is
 * missing or fails, the queries' own polling carries on; returns whether the stream is up.
 */
export function useLiveChanges(venueId: string, onLive: (live: boolean) => void) {
  const client = useQueryClient();
  useEffect(() => {
    const abort = new AbortController();
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      try {
        const token = session.token();
        const response = await fetch(`/api/venues/${encodeURIComponent(venueId)}/changes`, {
          headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          signal: abort.signal,
        });
        if (!response.ok || !response.body) {
          onLive(false);
          // No stream on this server (404): polling only. Other failures: try again in a while.
          if (response.status !== 404 && response.status !== 401) retry = setTimeout(() => void connect(), 30_000);
          return;
        }
        onLive(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
            const event = /^event:\s*(.*)$/m.exec(frame)?.[1]?.trim();
            if (event === 'bookings') void client.invalidateQueries({ queryKey: floorKey(venueId) });
          }
        }
        onLive(false);
        if (!stopped) retry = setTimeout(() => void connect(), 2_000);
      } catch {
        onLive(false);
        if (!stopped) retry = setTimeout(() => void connect(), 30_000);
      }
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      abort.abort();
    };
  }, [venueId, client, onLive]);
}

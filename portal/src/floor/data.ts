/**
 * The floor's data: tables, areas, combinations, floors, blocks and the service day's bookings, fetched in
 * parallel (one query each, no waterfall), and kept fresh by the venue's change stream, polling (every 30 s
 * and on window focus) while it is not open.
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

/** `tablesReadable`: the role may read tables (a door role may not): without it only the bookings are fetched. */
export function useFloorData(venueId: string, date: string, pollMs: number, tablesReadable: boolean) {
  const key = floorKey(venueId);
  const path = { path: { venueId } };
  const options = { refetchInterval: pollMs, refetchOnWindowFocus: true } as const;
  const tableOptions = { ...options, enabled: tablesReadable };
  const [tables, areas, combos, floors, blocks, bookings, shifts] = useQueries({
    queries: [
      { queryKey: [...key, 'tables'], queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables', { params: path })), ...tableOptions },
      {
        queryKey: [...key, 'areas'],
        queryFn: () => call(api.GET('/api/my-venues/{venueId}/seating-areas', { params: path })),
        ...tableOptions,
      },
      {
        queryKey: [...key, 'combos'],
        queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables/combos', { params: path })),
        ...tableOptions,
      },
      { queryKey: [...key, 'floors'], queryFn: () => call(api.GET('/api/my-venues/{venueId}/floors', { params: path })), ...tableOptions },
      {
        // Only the blocks overlapping the service day (06:00 → 06:00 venue-local).
        queryKey: [...key, 'blocks', date],
        queryFn: () => call(api.GET('/api/my-venues/{venueId}/tables/blocks', { params: { ...path, query: { date } } })),
        ...tableOptions,
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

/** Silence longer than this (the server pings every 15 s) means the stream is dead: reconnect. */
const SILENCE_MS = 45_000;

/**
 * Live updates: the venue's server-sent event stream (`GET /api/my-venues/{venueId}/changes`, bearer auth,
 * so read with fetch rather than EventSource); each `bookings` event refreshes the floor. While the stream
 * is not open the queries' own polling carries on, and the stream is tried again with backoff (the
 * server's `Retry-After` on 429/503). `onLive` says whether it is open.
 */
export function useLiveChanges(venueId: string, onLive: (live: boolean) => void) {
  const client = useQueryClient();
  useEffect(() => {
    let stopped = false;
    let failures = 0;
    let opened = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let current: AbortController | undefined;
    const again = (ms: number) => {
      onLive(false);
      if (!stopped) retry = setTimeout(() => void connect(), ms);
    };
    const backoff = () => Math.min(60_000, 2_000 * 2 ** Math.min(failures++, 5));
    const connect = async () => {
      const abort = new AbortController();
      current = abort;
      let silence: ReturnType<typeof setTimeout> | undefined;
      const alive = () => {
        clearTimeout(silence);
        silence = setTimeout(() => abort.abort(), SILENCE_MS);
      };
      try {
        const token = session.token();
        if (!token) return;
        const response = await fetch(`/api/my-venues/${encodeURIComponent(venueId)}/changes`, {
          headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
          signal: abort.signal,
        });
        if (!response.ok || !response.body) {
          void response.body?.cancel();
          // Signed out, or no such venue for this role: polling only (a 401 brings the sign-in form back).
          if ([401, 403, 404].includes(response.status)) return onLive(false);
          const after = Number(response.headers.get('retry-after'));
          return again(Number.isFinite(after) && after > 0 ? after * 1000 : backoff());
        }
        onLive(true);
        // Back after a gap: what changed meanwhile is refetched at once.
        if (opened) void client.invalidateQueries({ queryKey: floorKey(venueId) });
        opened = true;
        failures = 0;
        alive();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          alive();
          buffer += value;
          let end: number;
          while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
            const event = /^event:\s*(.*)$/m.exec(frame)?.[1]?.trim();
            if (event === 'bookings') void client.invalidateQueries({ queryKey: floorKey(venueId) });
          }
        }
        again(backoff());
      } catch {
        again(backoff());
      } finally {
        clearTimeout(silence);
      }
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      current?.abort();
    };
  }, [venueId, client, onLive]);
}

/**
 * The guest network (docs/guests.md). Two roster guests are connected when they booked together on at
 * least CONNECTION_MIN_DATES distinct dates within the last CONNECTION_WINDOW_DAYS: bookings that were not
 * cancelled, rejected, expired or refused at the door, at the same venue, on the same date, with the same
 * start time (the same slot, or the same guest-list night when there is no time). Computed from bookings
 * on demand; graphs are bounded (EGO_MAX_NEIGHBOURS, GRAPH_MAX_NODES, PAIR_LIMIT).
 */
import type { Conn } from '../../db/transaction.js';
import { guestProfiles } from '../auth/index.js';
import { rosterMembers, type GuestScope } from './roster.repository.js';
import type { GuestSources } from './sources.js';

export const CONNECTION_MIN_DATES = 2;
export const CONNECTION_WINDOW_DAYS = 365;
export const EGO_MAX_NEIGHBOURS = 100;
export const GRAPH_MAX_NODES = 300;
/** The most booked-together pairs read for one graph. */
export const PAIR_LIMIT = 5000;

export interface NetworkNode {
  id: string;
  name: string;
  degree: number;
  followers: number;
  verified: boolean;
  tier: string;
  centre: boolean;
}

export interface Graph {
  nodes: NetworkNode[];
  edges: { source: string; target: string }[];
}

type Sources = Pick<GuestSources, 'coBookings'>;

const sinceDate = (now: Date) => new Date(now.getTime() - CONNECTION_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);

const query = (scope: GuestScope, now: Date, userIds?: readonly string[]) => ({
  venueIds: scope.venueIds,
  sinceDate: sinceDate(now),
  minDates: CONNECTION_MIN_DATES,
  limit: PAIR_LIMIT,
  ...(userIds ? { userIds } : {}),
});

/** The guest's connections (roster guests within the scope), strongest first. */
export async function connectionsOf(conn: Conn, sources: Sources, scope: GuestScope, userId: string, now: Date): Promise<string[]> {
  const pairs = await sources.coBookings(conn, scope.operatorId, query(scope, now, [userId]));
  const members = await rosterMembers(
    conn,
    scope,
    pairs.map((p) => p.b),
  );
  return pairs.filter((p) => members.has(p.b)).map((p) => p.b);
}

const edgeKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

async function toNodes(
  conn: Conn,
  ids: readonly string[],
  degree: Map<string, number>,
  followers: Map<string, number>,
  centre: string | null,
) {
  const profiles = await guestProfiles(conn, ids);
  return profiles
    .map((p) => ({
      id: p.id,
      name: p.name,
      degree: degree.get(p.id) ?? 0,
      followers: followers.get(p.id) ?? 0,
      verified: Boolean(p.registered),
      tier: p.membership_tier ?? '',
      centre: p.id === centre,
    }))
    .sort((a, b) => Number(b.centre) - Number(a.centre) || b.degree - a.degree || (a.id < b.id ? -1 : 1));
}

function degrees(edges: readonly { source: string; target: string }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of edges) {
    out.set(e.source, (out.get(e.source) ?? 0) + 1);
    out.set(e.target, (out.get(e.target) ?? 0) + 1);
  }
  return out;
}

/** The one-hop graph of a (visible) guest: the guest, their connections and the edges among all of them. */
export async function egoGraph(
  conn: Conn,
  sources: Sources,
  scope: GuestScope,
  centreId: string,
  now: Date,
): Promise<Graph & { centre_id: string }> {
  const all = await connectionsOf(conn, sources, scope, centreId, now);
  const neighbours = all.slice(0, EGO_MAX_NEIGHBOURS);
  const inGraph = new Set([centreId, ...neighbours]);
  const pairs = neighbours.length > 0 ? await sources.coBookings(conn, scope.operatorId, query(scope, now, neighbours)) : [];
  const members = await rosterMembers(
    conn,
    scope,
    pairs.map((p) => p.b),
  );
  const followers = new Map<string, number>([[centreId, all.length]]);
  const edges = new Map<string, { source: string; target: string }>();
  for (const n of neighbours) edges.set(edgeKey(centreId, n), { source: centreId, target: n });
  for (const p of pairs) {
    if (!members.has(p.b)) continue;
    followers.set(p.a, (followers.get(p.a) ?? 0) + 1);
    if (inGraph.has(p.b) && !edges.has(edgeKey(p.a, p.b))) edges.set(edgeKey(p.a, p.b), { source: p.a, target: p.b });
  }
  const edgeList = [...edges.values()];
  return { nodes: await toNodes(conn, [...inGraph], degrees(edgeList), followers, centreId), edges: edgeList, centre_id: centreId };
}

/** The whole network of the roster within the scope, cut to the GRAPH_MAX_NODES most connected guests. */
export async function wholeGraph(
  conn: Conn,
  sources: Sources,
  scope: GuestScope,
  now: Date,
): Promise<Graph & { centre_id: string | null; truncated: boolean }> {
  const pairs = await sources.coBookings(conn, scope.operatorId, query(scope, now));
  const members = await rosterMembers(
    conn,
    scope,
    pairs.flatMap((p) => [p.a, p.b]),
  );
  const visible = pairs.filter((p) => members.has(p.a) && members.has(p.b)).map((p) => ({ source: p.a, target: p.b }));
  const followers = degrees(visible);
  const ranked = [...followers.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([id]) => id);
  const kept = new Set(ranked.slice(0, GRAPH_MAX_NODES));
  const edges = visible.filter((e) => kept.has(e.source) && kept.has(e.target));
  const degree = degrees(edges);
  const centre = [...kept].sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || (a < b ? -1 : 1))[0] ?? null;
  return {
    nodes: await toNodes(conn, [...kept], degree, followers, centre),
    edges,
    centre_id: centre,
    truncated: pairs.length >= PAIR_LIMIT || ranked.length > kept.size,
  };
}

/**
 * The guard every authenticated route declares, as an onRequest hook so that it runs before the body
 * is parsed or validated (an anonymous caller gets 401 whatever it sent, and learns nothing):
 *   onRequest: ctx.guard({ permission: 'tables:write', venueParam: 'venueId' })
 * Order: session (401) → client role (403) → venue reachable by the account and role scope (404)
 * → permission (403). Authenticated responses are `private, no-store`.
 *
 * What a session resolves to (its user, the role's grant) is kept per instance in a session cache
 * (platform/session-cache.ts), stamped with the session's version; every request still reads the session
 * row, so an ended session or a changed user or role is seen at once on every instance.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import { forbidden, notFound, unauthorized } from './errors.js';
import { hashToken } from './ids.js';
import { allows, parseRequirement, type Grants, type PermissionRequirement } from './permissions.js';
import { setRequestActor } from './request-context.js';
import { SESSION_CACHE_DEFAULTS, SessionCache, type SessionCacheOptions } from './session-cache.js';

/** A venue as the guard loads it for venue routes (`venueOf(request)`). */
export type VenueRow = Selectable<Database['venues']>;

/** The signed-in user behind a session. */
export interface SessionUser {
  id: string;
  role: string;
  name: string;
  email: string;
  operator_id: string | null;
  role_id: string | null;
}

/** A session as the guard's source reads it: `version` is its `auth_version` when its user was read. */
export interface VerifiedSession {
  sessionId: string;
  version: number;
  user: SessionUser;
}

/** A session, its user and the user's role grant, as the session cache keeps them. */
interface CachedSession extends VerifiedSession {
  grant: RoleGrant;
}

/** What a role grants: the Owner role everything; a custom role its grid, limited to its venues (null: all). */
export interface RoleGrant {
  isOwner: boolean;
  grants: Grants;
  venueScope: string[] | null;
}

/**
 * Where the guard reads sessions, roles and venues: the auth, team and venues modules own those tables
 * and hand these look-ups to the guard in the composition root (src/modules/index.ts).
 */
export interface GuardSources {
  /**
   * The session behind a token's hash (undefined: none, or expired), read afresh on every request. With
   * `known` (what this instance read for the token before), the user is `known.user` while the session's
   * version is unchanged, and read again otherwise.
   */
  verifySession(tokenHash: string, known?: VerifiedSession): Promise<VerifiedSession | undefined>;
  /**
   * The grant of a role of the account; undefined when the role is not the account's. Read when the
   * session's version has moved since this instance last read it (or was never read here).
   */
  roleGrant(operatorId: string, roleId: string): Promise<RoleGrant | undefined>;
  /** The venue when it belongs to the account. */
  findVenue(operatorId: string, venueId: string): Promise<VenueRow | undefined>;
  /** Every venue id of the account. */
  venueIds(operatorId: string): Promise<string[]>;
}

export interface AuthInfo {
  sessionId: string;
  user: SessionUser;
  /** The caller's operator account (client users only). */
  operatorId: string | null;
  isOwner: boolean;
  grants: Grants;
  /** Venues the caller's role is limited to; null means every venue of the account. */
  venueScope: string[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthInfo;
    venue?: VenueRow;
  }
}

/** A route hook (onRequest); typed loosely so it fits routes of any schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GuardHook = (request: any, reply: any) => Promise<void>;

export interface GuardOptions {
  /** `client` (default) for operator routes; `guest`, `promoter`, or `any` for routes any signed-in user may call. */
  role?: 'client' | 'guest' | 'promoter' | 'any';
  /** The permission the route needs; with a list, any one of them will do. */
  permission?: PermissionRequirement | PermissionRequirement[];
  /**
   * Also let a `promoter` user through without a permission (the events' "also accept an organiser"
   * routes): the service then reaches only the promoter's own events.
   */
  promoter?: boolean;
  /** Name of the path parameter holding a venue id; the venue is loaded into `request.venue`. */
  venueParam?: string;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

const NO_GRANT: RoleGrant = { isOwner: false, grants: new Map(), venueScope: null };

export function createGuard(sources: GuardSources, cacheOptions: SessionCacheOptions = SESSION_CACHE_DEFAULTS) {
  const sessions = new SessionCache<CachedSession>(cacheOptions);

  /** What the user's role grants: nothing unless a client user holds a role of their account. */
  async function grantOf(user: SessionUser): Promise<RoleGrant> {
    if (user.role !== 'client' || !user.role_id || !user.operator_id) return NO_GRANT;
    return (await sources.roleGrant(user.operator_id, user.role_id)) ?? NO_GRANT;
  }

  /** The venue when a venue id is asked for and belongs to the account (the role's scope is not applied). */
  async function accountVenue(operatorId: string | null, venueId: string | undefined): Promise<VenueRow | undefined> {
    return venueId !== undefined && operatorId ? sources.findVenue(operatorId, venueId) : undefined;
  }

  /**
   * The caller behind the request's bearer token and, with a venue id, that venue of their account.
   * The session row is read on every request. With the session in this instance's cache, that is the only
   * read besides the venue, and both go together (one round trip); the user and grant are the cached ones
   * while the session's version is unchanged. Otherwise: the session and user, then the role's grant and
   * the venue together, and the cache keeps the answer under the version read first.
   */
  async function authenticate(request: FastifyRequest, venueId?: string): Promise<{ auth: AuthInfo; venue?: VenueRow } | undefined> {
    const token = bearerToken(request);
    if (!token) return undefined;
    const tokenHash = hashToken(token);
    const cached = sessions.get(tokenHash);
    const early = cached && venueId !== undefined ? accountVenue(cached.user.operator_id, venueId) : undefined;
    const [session, earlyVenue] = await Promise.all([sources.verifySession(tokenHash, cached), early]);
    if (!session) {
      sessions.delete(tokenHash);
      return undefined;
    }
    const { user } = session;
    const current = cached !== undefined && cached.sessionId === session.sessionId && cached.version === session.version;
    const [grant, venue] = await Promise.all([
      current ? cached.grant : grantOf(user),
      early && cached?.user.operator_id === user.operator_id ? earlyVenue : accountVenue(user.operator_id, venueId),
    ]);
    if (!current) sessions.set(tokenHash, { ...session, grant });
    return { auth: { sessionId: session.sessionId, user, operatorId: user.operator_id, ...grant }, venue };
  }

  async function loadAuth(request: FastifyRequest): Promise<AuthInfo | undefined> {
    return (await authenticate(request))?.auth;
  }

  /** Loads the venue if it belongs to the caller's account and lies within the role's scope. */
  async function reachableVenue(auth: AuthInfo, venueId: string): Promise<VenueRow> {
    if (!auth.operatorId || (auth.venueScope && !auth.venueScope.includes(venueId))) throw notFound('Venue');
    const venue = await sources.findVenue(auth.operatorId, venueId);
    if (!venue) throw notFound('Venue');
    return venue;
  }

  function guard(options: GuardOptions = {}): GuardHook {
    const requirements = [options.permission ?? []].flat().map(parseRequirement);
    const role = options.role ?? 'client';
    const { venueParam } = options;
    return async function guardHandler(request: FastifyRequest, reply: FastifyReply) {
      reply.header('Cache-Control', 'private, no-store');
      const venueId = venueParam === undefined ? undefined : ((request.params as Record<string, string>)[venueParam] ?? '');
      // The venue is read together with the role's grant, but the checks keep their order: 401, 403 for
      // the wrong kind of user, 404 for a venue outside the account or the role's scope, 403 for the permission.
      const found = request.auth
        ? { auth: request.auth, venue: await accountVenue(request.auth.operatorId, venueId) }
        : await authenticate(request, venueId);
      if (!found) throw unauthorized();
      const { auth, venue } = found;
      request.auth = auth;
      // Who acts in this request, for the audit log (platform/request-context.ts).
      setRequestActor(request, auth.user);
      const asPromoter = options.promoter === true && auth.user.role === 'promoter';
      if (asPromoter) return;
      if (role !== 'any' && auth.user.role !== role) throw forbidden();
      if (venueId !== undefined) {
        if (!venue || (auth.venueScope && !auth.venueScope.includes(venueId))) throw notFound('Venue');
        request.venue = venue;
      }
      if (requirements.length > 0 && !requirements.some((r) => allows(auth.grants, r.key, r.action, auth.isOwner))) {
        throw forbidden(`Your role lacks the ${requirements.map((r) => `${r.key}:${r.action}`).join(' or ')} permission.`);
      }
    };
  }

  /** The caller's own venue ids (all of the account's, narrowed by the role's scope). */
  async function reachableVenueIds(auth: AuthInfo): Promise<string[]> {
    if (!auth.operatorId) return [];
    const ids = await sources.venueIds(auth.operatorId);
    return auth.venueScope ? ids.filter((id) => auth.venueScope!.includes(id)) : ids;
  }

  return { guard, loadAuth, reachableVenue, reachableVenueIds };
}

export type Guard = ReturnType<typeof createGuard>;
/** `guard({ permission, venueParam })`: the onRequest hook factory route plugins receive. */
export type GuardFactory = Guard['guard'];

/** The authenticated caller of a guarded route. */
export function authOf(request: FastifyRequest): AuthInfo {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** The operator account of a guarded operator route. */
export function operatorIdOf(request: FastifyRequest): string {
  const auth = authOf(request);
  if (!auth.operatorId) throw forbidden();
  return auth.operatorId;
}

/** The venue a guarded route loaded through `venueParam`. */
export function venueOf(request: FastifyRequest): VenueRow {
  if (!request.venue) throw notFound('Venue');
  return request.venue;
}

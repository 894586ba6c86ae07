/**
 * Fair shares of the event loop between tenants while one of them has a crowd (docs/decisions.md, "Bookings
 * and ticket sales under a crowd", fair shares).
 *
 * One process serves every venue in arrival order, so a table drop's 200 connections, each request a
 * booking of about half a millisecond of CPU, would leave another venue's widget or a manager's floor a
 * sliver of the loop. Routes that a crowd hits (public booking, ticket purchase) name the path parameter
 * that is their tenant (`config: { fairShare: 'venueId' }`). While requests of some other tenant have been
 * seen in the last `windowMs`, at most `perTurn` requests of each such tenant are let on per turn of the
 * event loop, before their bodies are parsed; the rest wait, in order, for the next turns. A crowd with the
 * process to itself runs unpaced, so the group commit still gathers its whole batches.
 *
 * Every other request is let through at once; it only marks its tenant as present: a public route's venue or
 * event (a venue's own widget does not pace its drop), else one tenant for all the rest (staff and guests'
 * accounts: a venue's floor counts against its own drop). Health probes and metrics scrapes are not counted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The path parameter naming the tenant whose crowd this route is paced against others. */
    fairShare?: string;
  }
}

export interface FairShareOptions {
  /** Requests of one paced tenant let on per turn while other tenants are present. */
  perTurn: number;
  /** Another tenant counts as present for this many milliseconds after its last request. */
  windowMs: number;
  now?: () => number;
  /** Runs the next turn's admissions: `setImmediate`, after the turn's I/O. */
  defer?: (tick: () => void) => void;
}

export const FAIR_SHARE_DEFAULTS: FairShareOptions = { perTurn: 1, windowMs: 50 };

/** Where the rest of the requests count: the tenant of routes without a venue or event of their own. */
const OTHERS = '';

export class FairShare {
  private tickScheduled = false;
  /** When each recently seen tenant was last seen. */
  private readonly seen = new Map<string, number>();
  /** Paced tenants' requests let on in this turn. */
  private readonly admitted = new Map<string, number>();
  /** Paced tenants' waiting requests, oldest first. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly now: () => number;
  private readonly defer: (tick: () => void) => void;

  constructor(private readonly options: FairShareOptions = FAIR_SHARE_DEFAULTS) {
    this.now = options.now ?? (() => performance.now());
    this.defer = options.defer ?? ((tick) => setImmediate(tick));
  }

  /** A request that is not paced: its tenant is present. */
  note(tenant: string): void {
    this.mark(tenant);
  }

  /** A paced request: undefined to go on now, else a promise that resolves when its turn comes. */
  admit(tenant: string): Promise<void> | undefined {
    this.mark(tenant);
    const queue = this.waiting.get(tenant);
    if (!queue && (!this.contended(tenant) || this.take(tenant))) return undefined;
    metrics.fairSharePaced();
    return new Promise((resolve) => {
      if (queue) queue.push(resolve);
      else this.waiting.set(tenant, [resolve]);
    });
  }

  /** Requests waiting for their turn, over all tenants. */
  get queued(): number {
    let n = 0;
    for (const queue of this.waiting.values()) n += queue.length;
    return n;
  }

  private mark(tenant: string): void {
    this.seen.set(tenant, this.now());
    if (!this.tickScheduled) {
      this.tickScheduled = true;
      this.defer(() => this.tick());
    }
  }

  /** Whether another tenant has been seen within the window. */
  private contended(tenant: string): boolean {
    const now = this.now();
    for (const [other, at] of this.seen) {
      if (other !== tenant && now - at <= this.options.windowMs) return true;
    }
    return false;
  }

  /** One more of this turn's places for the tenant, if any is left. */
  private take(tenant: string): boolean {
    const taken = this.admitted.get(tenant) ?? 0;
    if (taken >= this.options.perTurn) return false;
    this.admitted.set(tenant, taken + 1);
    return true;
  }

  /** The end of a turn: forget what is out of the window, then let the waiting on, each tenant in turn. */
  private tick(): void {
    this.tickScheduled = false;
    this.admitted.clear();
    const now = this.now();
    for (const [tenant, at] of this.seen) {
      if (now - at > this.options.windowMs) this.seen.delete(tenant);
    }
    for (const [tenant, queue] of this.waiting) {
      const all = !this.contended(tenant);
      let n = 0;
      while (n < queue.length && (all || this.take(tenant))) n++;
      for (const resolve of queue.splice(0, n)) resolve();
      if (queue.length === 0) this.waiting.delete(tenant);
    }
    if (this.waiting.size > 0 && !this.tickScheduled) {
      this.tickScheduled = true;
      this.defer(() => this.tick());
    }
  }
}

const UNCOUNTED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Where connections being accepted count. libuv accepts one connection per turn of the event loop
 * (libuv pull request 3696; measured on Node 20 and 24), so while a crowd keeps turns long, the guests
 * still connecting wait in the kernel's queue, a turn each: a drop's 200 new connections waited up to a
 * second. A connection accepted marks them present, and the crowd is paced, its turns short, until they
 * stop arriving.
 */
const CONNECTING = 'connecting';

/**
 * The hooks: paced routes wait for their turn, the rest mark their tenant present, and so does each
 * connection accepted.
 */
export function registerFairShare(app: FastifyInstance, share = new FairShare()): FairShare {
  app.server.on('connection', () => share.note(CONNECTING));
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.routeOptions.url;
    if (url === undefined || UNCOUNTED.has(url)) return done();
    const paced = request.routeOptions.config.fairShare;
    if (paced === undefined) {
      share.note(url.startsWith('/api/public/') ? publicTenantOf(request) : OTHERS);
      return done();
    }
    const turn = share.admit(tenantOf(request, paced));
    if (turn) void turn.then(() => done());
    else done();
  });
  return share;
}

function tenantOf(request: FastifyRequest, param: string): string {
  const value = (request.params as Record<string, string | undefined>)[param];
  return value === undefined ? OTHERS : `${param}:${value}`;
}

/**
 * A public route's tenant: its venue or event, so a venue's own widget reads during its drop do not pace
 * the drop. Staff routes all count as the others: a venue's floor must keep its pace during its own drop.
 */
function publicTenantOf(request: FastifyRequest): string {
  const params = request.params as Record<string, string | undefined>;
  if (params.venueId !== undefined) return `venueId:${params.venueId}`;
  if (params.eventId !== undefined) return `eventId:${params.eventId}`;
  return OTHERS;
}

/**
 * What changed in the database, for caches of derived answers (public availability, widget configs).
 *
 * A Kysely plugin sees every statement this process runs. A write (insert, update, delete, or raw SQL
 * that starts with one) to a table that is not on the IGNORED list marks the venues it touches as
 * changed: the `venue_id` values of an insert, or the venue of a `where venue_id = …` (or `venues.id =
 * …`) update or delete; anything else marks every venue. A mark bumps a generation counter (one per
 * venue and one global); a cached answer is good only while the generations it was computed under are
 * still current. Two scopes are kept: `everything`, and `configuration`, which writes to the stays
 * (bookings, their tables and slots) do not move, so a cached configuration outlives bookings.
 *
 * When marks happen, so that no cache keeps an answer read before a change was committed:
 * - as the statement is sent, and again when its result comes back (an autocommit write is then
 *   committed);
 * - when the `withTransaction` that wrote ends (commit or rollback), with everything it touched (its
 *   handle carries a `Trail` plugin that records the transaction's writes);
 * - on PostgreSQL, when the committed change reaches the other instances: a transaction sends
 *   `pg_notify` before it commits (delivered only if it commits), a write outside a transaction
 *   right after it ran; every instance LISTENs (this one included) and marks the venues named. A
 *   lost listening connection marks everything when it is back, since changes may have been missed.
 *
 * Listeners (`onMark`) hear every mark as it happens: the live floor stream (platform/live-changes.ts)
 * turns them into events. The last mark of a write always follows its commit (the transaction's end, or
 * the notification), so a listener that acts on the latest mark never misses a committed change.
 */
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Tables whose writes change nothing a cache derives: sessions, mail, ledgers, history, vouchers, the
 * simulated provider, the guest roster a booking joins (keyed by operator, not venue: counted as a
 * change, every booking would have invalidated every venue's caches), the outbound webhooks' tables
 * (written with a booking when the account has an endpoint), and memberships (keyed by operator, and the
 * member price and perks are read afresh by each sale, never from a cache).
 */
const IGNORED = new Set([
  'sessions',
  'guest_roster',
  'guest_roster_venues',
  'guest_search_terms',
  'two_factor_challenges',
  'users',
  'mail_outbox',
  // Text messages, guests' consents and opt-outs, and the reminders sent: nothing cached is derived from them
  // (consents are keyed by operator: counted, a booking with SMS consent would invalidate every venue).
  'sms_outbox',
  'sms_opt_outs',
  'message_consents',
  'booking_reminders',
  'platform_settings',
  'booking_history',
  'idempotency_keys',
  'venue_door_keys',
  'payment_accounts',
  'payment_records',
  'payment_ledger',
  'webhook_events',
  'payment_fulfilments',
  'billing_ledger',
  'role_permissions',
  'role_venues',
  'roles',
  'members',
  'invitations',
  'voucher_purchases',
  'vouchers',
  'voucher_redemptions',
  // The guest account's sign-in codes and contact preferences (account module): no cache reads them.
  'account_sign_in_codes',
  'account_preferences',
  // Email verification codes (auth module), pruned by the daily retention pass.
  'email_verifications',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'membership_tiers',
  'guest_memberships',
  'membership_purchases',
  // A ticket's row has no venue column: read as "every venue changed", each ticket sold emptied every venue's
  // caches during an on-sale. It is written only with its booking, in the same transaction, and the
  // booking's row names the venue, so that mark covers it.
  'event_tickets',
  // Promoters' pending sign-ups (no venue: every sign-up emptied every cache) and their ledger: no cache reads them.
  'promoter_sign_ups',
  'promoter_ledger',
  // The scheduler's own bookkeeping (platform/scheduler.ts): every beat of a one-instance job claims its row,
  // and counted as a change, each claim emptied every venue's caches on every instance.
  'job_runs',
]);
const ignored = (table: string) => IGNORED.has(table) || table.startsWith('sim_') || table.startsWith('kysely_');

/** Every venue. */
export const ALL_VENUES = '*';
export type Touched = typeof ALL_VENUES | readonly string[];

/** Tables holding the stays: writes to them change what is booked, not how the venue is configured. */
const STAY_TABLES = new Set(['bookings', 'booking_tables', 'booking_slots']);

/** What one statement or transaction changed: the venues touched, and whether only their stays. */
export interface Change {
  venues: Touched;
  staysOnly: boolean;
}

export type Scope = 'everything' | 'configuration';

/** A cache that can drop the answers it may no longer serve (platform/venue-cache.ts). */
export interface Sweepable {
  sweep(): number;
}

/** A cached answer's stamp: the generations of its scope current when it was computed. */
export interface Stamp {
  global: number;
  venue: number;
}

/** The most venue ids one notification names; more become "every venue". */
const MAX_NOTIFIED_VENUES = 100;

class Generations {
  global = 0;
  private readonly venues = new Map<string, number>();

  stamp(venueId: string): Stamp {
    return { global: this.global, venue: this.venues.get(venueId) ?? 0 };
  }

  isCurrent(stamp: Stamp, venueId: string): boolean {
    return stamp.global === this.global && stamp.venue === (this.venues.get(venueId) ?? 0);
  }

  mark(touched: Touched): void {
    if (touched === ALL_VENUES) this.global++;
    else for (const venueId of touched) this.venues.set(venueId, (this.venues.get(venueId) ?? 0) + 1);
  }
}

/** Venues accumulated over several writes (a transaction's, or a notification's). */
class VenueSet {
  private all = false;
  private readonly venues = new Set<string>();

  add(touched: Touched): void {
    if (touched === ALL_VENUES) this.all = true;
    else for (const venueId of touched) this.venues.add(venueId);
  }

  touched(): Touched | null {
    if (this.all || this.venues.size > MAX_NOTIFIED_VENUES) return ALL_VENUES;
    return this.venues.size > 0 ? [...this.venues] : null;
  }
}

export class ChangeFeed {
  private readonly scopes: Record<Scope, Generations> = { everything: new Generations(), configuration: new Generations() };
  /** What each write statement changes, as the plugin first saw it. */
  readonly statements = new WeakMap<QueryId, Change>();
  /** Write statements run inside a tracked transaction (announced with it, not on their own). */
  readonly transactional = new WeakSet<QueryId>();
  /** PostgreSQL: announces changes to every instance (set by openPostgres). */
  announce?: (payload: string) => void;
  /**
   * SQLite: notices commits by other connections to the same file (another process: the CLI, a second
   * server), which the plugin cannot see, and marks everything (set by openSqlite). Called before every
   * stamp and check; it looks at most every 100 ms, so such a commit reaches the caches within that.
   */
  poll?: () => void;
  readonly plugin: KyselyPlugin;
  private readonly listeners = new Set<(venues: Touched, staysOnly: boolean) => void>();
  /** The caches kept correct by this feed (platform/venue-cache.ts), held weakly: a closed app's go with it. */
  private readonly caches = new Set<WeakRef<Sweepable>>();

  constructor() {
    this.plugin = new WriteWatch(this);
  }

  stamp(venueId: string, scope: Scope = 'everything'): Stamp {
    this.poll?.();
    return this.scopes[scope].stamp(venueId);
  }

  isCurrent(stamp: Stamp, venueId: string, scope: Scope = 'everything'): boolean {
    this.poll?.();
    return this.scopes[scope].isCurrent(stamp, venueId);
  }

  /** Marks venues (or all) as changed in this process now; their configuration too unless only stays changed. */
  mark(venues: Touched, staysOnly = false): void {
    this.scopes.everything.mark(venues);
    if (!staysOnly) this.scopes.configuration.mark(venues);
    for (const listener of this.listeners) {
      // Marks happen on the write path: a failing listener must never fail a write.
      try {
        listener(venues, staysOnly);
      } catch {
        // Listeners are cheap and do not throw; nothing to undo if one did.
      }
    }
  }

  /**
   * Calls `listener` with every mark from now on (this process's writes, and on PostgreSQL every
   * instance's committed changes): synchronously, on the write path, so it must be cheap. Answers the
   * function that stops it.
   */
  onMark(listener: (venues: Touched, staysOnly: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Registers a cache kept correct by this feed, for `sweepCaches`. */
  register(cache: Sweepable): void {
    this.caches.add(new WeakRef(cache));
  }

  /**
   * Drops from every registered cache the answers it may no longer serve (expired, or older than a change
   * of their venue), so the memory they hold can be collected: run when the server goes quiet
   * (platform/quiet-gc.ts). Answers how many went.
   */
  sweepCaches(): number {
    let dropped = 0;
    for (const ref of this.caches) {
      const cache = ref.deref();
      if (cache) dropped += cache.sweep();
      else this.caches.delete(ref);
    }
    return dropped;
  }

  /** A plugin for one transaction's handle, recording what the transaction writes. */
  trail(): Trail {
    return new Trail(this);
  }

  /** A notification from the database (this instance's own commits included): see `notificationPayload`. */
  received(payload: string): void {
    const [configuration = '*', stays = ''] = payload.split('|');
    const parse = (part: string): Touched | null => (part === '' ? null : part === ALL_VENUES ? ALL_VENUES : part.split(','));
    const changed = parse(configuration);
    const staysChanged = parse(stays);
    if (changed) this.mark(changed);
    if (staysChanged) this.mark(staysChanged, true);
    if (!changed && !staysChanged) this.mark(ALL_VENUES);
  }
}

/** Records what one transaction's writes change. */
export class Trail implements KyselyPlugin {
  private readonly configuration = new VenueSet();
  private readonly stays = new VenueSet();

  constructor(private readonly feed: ChangeFeed) {}

  /** What the transaction changed so far, as notification parts (null: nothing a cache derives). */
  changes(): { configuration: Touched | null; stays: Touched | null } | null {
    const configuration = this.configuration.touched();
    const stays = this.stays.touched();
    return configuration || stays ? { configuration, stays } : null;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    // The feed's own plugin ran first (plugins run in the order they were added).
    const change = this.feed.statements.get(args.queryId);
    if (change) {
      this.feed.transactional.add(args.queryId);
      (change.staysOnly ? this.stays : this.configuration).add(change.venues);
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** Marks what a transaction (or statement) changed, in this process. */
export function markChanges(feed: ChangeFeed, changes: { configuration: Touched | null; stays: Touched | null }): void {
  if (changes.configuration) feed.mark(changes.configuration);
  if (changes.stays) feed.mark(changes.stays, true);
}

const part = (touched: Touched | null) => (touched === null ? '' : touched === ALL_VENUES ? ALL_VENUES : touched.join(','));

/** The notification naming what changed: `<venues whose configuration changed>|<venues whose stays changed>`. */
export const notificationPayload = (changes: { configuration: Touched | null; stays: Touched | null }): string =>
  `${part(changes.configuration)}|${part(changes.stays)}`;

class WriteWatch implements KyselyPlugin {
  constructor(private readonly feed: ChangeFeed) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const venues = touchedBy(args.node);
    if (venues) {
      const change = { venues, staysOnly: STAY_TABLES.has(writtenTable(args.node) ?? '') };
      this.feed.statements.set(args.queryId, change);
      this.feed.mark(change.venues, change.staysOnly);
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const change = this.feed.statements.get(args.queryId);
    if (change) {
      this.feed.statements.delete(args.queryId);
      this.feed.mark(change.venues, change.staysOnly);
      // Outside a transaction the write is committed now: tell the other instances.
      if (!this.feed.transactional.has(args.queryId)) {
        this.feed.announce?.(
          notificationPayload(
            change.staysOnly ? { configuration: null, stays: change.venues } : { configuration: change.venues, stays: null },
          ),
        );
      }
    }
    return Promise.resolve(args.result);
  }
}

type Node = OperationNode & Record<string, unknown>;

/** The table a TableNode (or an aliased one) names. */
const tableName = (node: unknown): string | undefined => {
  const n = node as { kind?: string; node?: unknown; table?: { identifier?: { name?: string } } } | undefined;
  if (n?.kind === 'AliasNode') return tableName(n.node);
  return n?.kind === 'TableNode' ? n.table?.identifier?.name : undefined;
};

const columnName = (node: unknown): string | undefined => {
  const n = node as { kind?: string; column?: { column?: { name?: string } }; name?: string } | undefined;
  if (n?.kind === 'ReferenceNode') return n.column?.column?.name;
  if (n?.kind === 'ColumnNode') return (n as { column?: { name?: string } }).column?.name;
  return undefined;
};

/** The table an insert, update or delete writes (undefined for anything else or when it cannot tell). */
function writtenTable(node: RootOperationNode): string | undefined {
  const n = node as Node;
  if (node.kind === 'InsertQueryNode') return tableName(n.into);
  if (node.kind === 'UpdateQueryNode') return tableName(n.table);
  if (node.kind === 'DeleteQueryNode') return tableName((n.from as { froms?: unknown[] } | undefined)?.froms?.[0]);
  return undefined;
}

/** The venues a write touches: null for reads and ignored tables, ALL_VENUES when it cannot tell. */
export function touchedBy(node: RootOperationNode): Touched | null {
  const n = node as Node;
  switch (node.kind) {
    case 'InsertQueryNode': {
      const table = tableName(n.into);
      if (!table) return ALL_VENUES;
      if (ignored(table)) return null;
      return insertedVenues(n, table) ?? ALL_VENUES;
    }
    case 'UpdateQueryNode':
    case 'DeleteQueryNode': {
      const target = node.kind === 'UpdateQueryNode' ? n.table : (n.from as { froms?: unknown[] } | undefined)?.froms?.[0];
      const table = tableName(target);
      if (!table) return ALL_VENUES;
      if (ignored(table)) return null;
      const venue = whereVenue((n.where as { where?: unknown } | undefined)?.where, table === 'venues' ? 'id' : 'venue_id');
      return venue ? [venue] : ALL_VENUES;
    }
    case 'RawNode': {
      const text = ((n.sqlFragments as readonly string[] | undefined) ?? []).join('?').trimStart().slice(0, 12).toLowerCase();
      return /^(insert|update|delete)\b/.test(text) ? ALL_VENUES : null;
    }
    default:
      return null;
  }
}

/** The `venue_id` values of an insert's rows, when every row names one as a plain value. */
function insertedVenues(n: Node, table: string): string[] | null {
  const columns = (n.columns as readonly unknown[] | undefined)?.map(columnName) ?? [];
  const index = columns.indexOf(table === 'venues' ? 'id' : 'venue_id');
  if (index < 0) return null;
  const rows = (n.values as { values?: readonly unknown[] } | undefined)?.values ?? [];
  const venues = new Set<string>();
  for (const row of rows) {
    const r = row as { kind?: string; values?: readonly unknown[] };
    let value: unknown;
    if (r.kind === 'PrimitiveValueListNode') value = r.values?.[index];
    else if (r.kind === 'ValueListNode') {
      const cell = r.values?.[index] as { kind?: string; value?: unknown } | undefined;
      value = cell?.kind === 'ValueNode' ? cell.value : undefined;
    }
    if (typeof value !== 'string') return null;
    venues.add(value);
  }
  return venues.size > 0 ? [...venues] : null;
}

/** The value of `column = <value>` in a where clause (itself or one side of a chain of ANDs). */
function whereVenue(where: unknown, column: string): string | undefined {
  const w = where as { kind?: string; left?: unknown; right?: unknown; leftOperand?: unknown; operator?: unknown; rightOperand?: unknown };
  if (!w) return undefined;
  if (w.kind === 'AndNode') return whereVenue(w.left, column) ?? whereVenue(w.right, column);
  if (w.kind === 'ParensNode') return whereVenue((w as { node?: unknown }).node, column);
  if (w.kind !== 'BinaryOperationNode') return undefined;
  const operator = (w.operator as { operator?: string } | undefined)?.operator;
  if (operator !== '=' || columnName(w.leftOperand) !== column) return undefined;
  const right = w.rightOperand as { kind?: string; value?: unknown } | undefined;
  return right?.kind === 'ValueNode' && typeof right.value === 'string' ? right.value : undefined;
}

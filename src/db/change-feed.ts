/**
 * What changed in the database, for caches of derived answers (public availability, widget configs).
 *
 * A Kysely plugin sees every statement this process runs. A write (insert, update, delete, or raw SQL
 * that starts with one) to a table that is not on the IGNORED list marks the venues it touches as
 * changed: the `venue_id` values of an insert, or the venue of a `where venue_id = …` (or `venues.id =
 * …`) update or delete; anything else marks every venue. A mark bumps a generation counter (one per
 * venue and one global); a cached answer is good only while the generations it was computed under are
 * still current.
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

/** Tables whose writes change nothing a cache derives: sessions, mail, ledgers, history, the simulated provider. */
const IGNORED = new Set([
  'sessions',
  'two_factor_challenges',
  'users',
  'mail_outbox',
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
]);
const ignored = (table: string) => IGNORED.has(table) || table.startsWith('sim_') || table.startsWith('kysely_');

/** Every venue. */
export const ALL_VENUES = '*';
export type Touched = typeof ALL_VENUES | readonly string[];

/** A cached answer's stamp: the generations current when it was computed. */
export interface Stamp {
  global: number;
  venue: number;
}

/** The most venue ids one notification names; more become "every venue". */
const MAX_NOTIFIED_VENUES = 100;

export class ChangeFeed {
  private global = 0;
  private readonly venues = new Map<string, number>();
  /** What each write statement touches, as the plugin first saw it. */
  readonly statements = new WeakMap<QueryId, Touched>();
  /** Write statements run inside a tracked transaction (announced with it, not on their own). */
  readonly transactional = new WeakSet<QueryId>();
  /** PostgreSQL: announces a change to every instance (set by openPostgres). */
  announce?: (payload: string) => void;
  readonly plugin: KyselyPlugin;

  constructor() {
    this.plugin = new WriteWatch(this);
  }

  stamp(venueId: string): Stamp {
    return { global: this.global, venue: this.venues.get(venueId) ?? 0 };
  }

  isCurrent(stamp: Stamp, venueId: string): boolean {
    return stamp.global === this.global && stamp.venue === (this.venues.get(venueId) ?? 0);
  }

  /** Marks venues (or all) as changed in this process now. */
  mark(touched: Touched): void {
    if (touched === ALL_VENUES) {
      this.global++;
      return;
    }
    for (const venueId of touched) this.venues.set(venueId, (this.venues.get(venueId) ?? 0) + 1);
  }

  /** A plugin for one transaction's handle, recording what the transaction writes. */
  trail(): Trail {
    return new Trail(this);
  }

  /** A notification from the database (this instance's own commits included). */
  received(payload: string): void {
    this.mark(payload === ALL_VENUES || payload === '' ? ALL_VENUES : payload.split(','));
  }
}

/** Records the venues one transaction's writes touch. */
export class Trail implements KyselyPlugin {
  private all = false;
  private readonly venues = new Set<string>();

  constructor(private readonly feed: ChangeFeed) {}

  /** What the transaction touched so far (null: nothing a cache derives). */
  touched(): Touched | null {
    if (this.all || this.venues.size > MAX_NOTIFIED_VENUES) return ALL_VENUES;
    return this.venues.size > 0 ? [...this.venues] : null;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    // The feed's own plugin ran first (plugins run in the order they were added).
    const touched = this.feed.statements.get(args.queryId);
    if (touched) {
      this.feed.transactional.add(args.queryId);
      if (touched === ALL_VENUES) this.all = true;
      else for (const venueId of touched) this.venues.add(venueId);
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** The notification payload naming what a transaction touched. */
export const notificationPayload = (touched: Touched): string => (touched === ALL_VENUES ? ALL_VENUES : touched.join(','));

class WriteWatch implements KyselyPlugin {
  constructor(private readonly feed: ChangeFeed) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const touched = touchedBy(args.node);
    if (touched) {
      this.feed.statements.set(args.queryId, touched);
      this.feed.mark(touched);
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const touched = this.feed.statements.get(args.queryId);
    if (touched) {
      this.feed.statements.delete(args.queryId);
      this.feed.mark(touched);
      // Outside a transaction the write is committed now: tell the other instances.
      if (!this.feed.transactional.has(args.queryId)) this.feed.announce?.(notificationPayload(touched));
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

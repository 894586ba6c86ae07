/**
 * Rows left to be written together at the end of a transaction: a group commit's jobs each add the
 * rows of what they write, and the batch inserts every table's rows with one multi-row statement (in
 * slices far below the bound-parameter limits; on SQLite, slices of a power of two rows, so that the
 * statements it compiles and keeps are few) instead of a statement per job and table. On
 * PostgreSQL, where each statement is a round trip made under the batch's lock, that is most of a
 * batch's time (docs/performance.md, "Round 2, fourth pass"), so there the inserts go further: they are
 * sent as one statement, each a data-modifying `with` of it (`executeTogether`). Writes that are one
 * statement but not a plain insert (an insert that ignores conflicts) are collected as items with the
 * statements they make (`collectStatements`) and go with the inserts; writes that need their statements'
 * answers (upserts that return rows) are collected as items and handed to their own flush, once, with
 * every item of their name, after the inserts.
 *
 * What was added is written in the order its table (or name) was first added, after the names given to
 * the constructor, which go first in their order; flushed items follow all of them. Within one PostgreSQL
 * statement the order does not matter to foreign keys (they are checked when the whole statement ends);
 * on SQLite a job that adds its parent row (bookings) before its children (booking_tables,
 * booking_history) keeps them satisfied, and a parent only some jobs add (a new guest record) is named
 * first. A flush may only write rows that no insert here names. A row added here is not visible to reads
 * of the same transaction until `write`: only rows that nothing later in the transaction reads may be
 * deferred (the caller decides which).
 */
import { CompiledQuery, type Compilable, type Insertable } from 'kysely';
import { chunked, chunkedByPowersOfTwo } from './batch.js';
import type { Database } from './schema.js';
import { kyselyOf, onPostgres, type Conn } from './transaction.js';

type Table = keyof Database & string;

type Waiting =
  | { kind: 'rows'; table: Table; rows: Insertable<Database[Table]>[] }
  | { kind: 'items'; items: unknown[]; flush: (conn: Conn, items: unknown[]) => Promise<void> }
  | { kind: 'statements'; items: unknown[]; build: (conn: Conn, items: unknown[]) => Compilable<unknown>[] };

export class DeferredRows {
  private waiting = new Map<string, Waiting>();

  /** `first`: names (tables, or names of collected items) written before everything else, in this order. */
  constructor(private readonly first: readonly string[] = []) {}

  /** Leaves `rows` of `table` to be written by `write`. Every row of a table must name the same columns. */
  add<T extends Table>(table: T, rows: readonly Insertable<Database[T]>[]): void {
    const waiting = this.waiting.get(table);
    if (waiting?.kind === 'rows') waiting.rows.push(...(rows as Insertable<Database[Table]>[]));
    else this.waiting.set(table, { kind: 'rows', table, rows: [...(rows as Insertable<Database[Table]>[])] });
  }

  /**
   * Leaves `item` to `flush`, which `write` calls once, in its turn, with every item collected under
   * `name` (writes that are not plain inserts: the guest roster's upserts, `joinRosterMany`).
   */
  collect<T>(name: string, item: T, flush: (conn: Conn, items: T[]) => Promise<void>): void {
    const waiting = this.waiting.get(name);
    if (waiting?.kind === 'items') waiting.items.push(item);
    else this.waiting.set(name, { kind: 'items', items: [item], flush: flush as (conn: Conn, items: unknown[]) => Promise<void> });
  }

  /**
   * Leaves `item` to the statements `build` makes, once, with every item collected under `name`: each a
   * single insert whose answer nothing reads (new guest records, ignoring an email recorded meanwhile).
   */
  collectStatements<T>(name: string, item: T, build: (conn: Conn, items: T[]) => Compilable<unknown>[]): void {
    const waiting = this.waiting.get(name);
    if (waiting?.kind === 'statements') waiting.items.push(item);
    else
      this.waiting.set(name, {
        kind: 'statements',
        items: [item],
        build: build as (conn: Conn, items: unknown[]) => Compilable<unknown>[],
      });
  }

  /** How many rows and collected items are waiting. */
  get size(): number {
    let size = 0;
    for (const waiting of this.waiting.values()) size += waiting.kind === 'rows' ? waiting.rows.length : waiting.items.length;
    return size;
  }

  /** Writes what is waiting: the inserts (the constructor's names first, then the rest in the order first added), then the flushes. */
  async write(conn: Conn): Promise<void> {
    const waiting = this.waiting;
    this.waiting = new Map();
    const order = [...this.first.filter((name) => waiting.has(name)), ...[...waiting.keys()].filter((name) => !this.first.includes(name))];
    const k = kyselyOf(conn);
    // SQLite keeps each statement text it compiles: row counts in powers of two keep those few.
    const slices = onPostgres(k) ? chunked : chunkedByPowersOfTwo;
    const inserts: Compilable<unknown>[] = [];
    const flushes: (() => Promise<void>)[] = [];
    for (const name of order) {
      const next = waiting.get(name)!;
      if (next.kind === 'items') flushes.push(() => next.flush(conn, next.items));
      else if (next.kind === 'statements') inserts.push(...next.build(conn, next.items));
      else for (const chunk of slices(next.rows)) inserts.push(k.insertInto(next.table).values(chunk));
    }
    await executeTogether(conn, inserts);
    for (const flush of flushes) await flush();
  }
}

/** Bound parameters of one combined statement at most (PostgreSQL's limit is 65,535). */
const TOGETHER_PARAMETERS = 30_000;

/**
 * Runs write statements whose answers nothing reads, in order. SQLite, or outside a transaction: one
 * after the other (on SQLite no round trips: each is a call into the library). In a PostgreSQL
 * transaction: as few statements as the parameter limit allows, each `with "w1" as (<first>), "w2" as
 * (<second>), … <last>`: one round trip instead of one each. Its parts see the same snapshot, not each
 * other's rows, so none may depend on another's (plain inserts and ignored conflicts do not); foreign
 * keys are checked when the statement ends, whatever the order. Each part is compiled through the
 * handle's plugins, so the change feed records every write as its own (and the transaction announces
 * them when it commits). A statement that is not an insert, or whose parameters cannot be renumbered
 * safely, runs on its own in its turn.
 */
export async function executeTogether(conn: Conn, statements: readonly Compilable<unknown>[]): Promise<void> {
  const k = kyselyOf(conn);
  if (!k.isTransaction || !onPostgres(k)) {
    for (const statement of statements) await k.executeQuery(statement.compile());
    return;
  }
  let group: CompiledQuery[] = [];
  let parameters = 0;
  const send = async () => {
    if (group.length > 0) await k.executeQuery(combined(group));
    group = [];
    parameters = 0;
  };
  for (const statement of statements) {
    const compiled = statement.compile();
    if (!combinable(compiled)) {
      await send();
      await k.executeQuery(compiled);
      continue;
    }
    if (parameters + compiled.parameters.length > TOGETHER_PARAMETERS) await send();
    group.push(compiled);
    parameters += compiled.parameters.length;
  }
  await send();
}

const PLACEHOLDER = /\$(\d+)/g;

/** An insert whose placeholders are exactly $1 … $n, one for each of its parameters. */
function combinable(query: CompiledQuery): boolean {
  if (!/^insert\s/i.test(query.sql)) return false;
  let highest = 0;
  for (const [, n] of query.sql.matchAll(PLACEHOLDER)) highest = Math.max(highest, Number(n));
  return highest === query.parameters.length;
}

/** One statement of several inserts: every one but the last a `with` part, their parameters numbered on. */
function combined(queries: readonly CompiledQuery[]): CompiledQuery {
  if (queries.length === 1) return queries[0]!;
  const parts: string[] = [];
  const parameters: unknown[] = [];
  for (const query of queries) {
    const offset = parameters.length;
    parts.push(query.sql.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`));
    parameters.push(...query.parameters);
  }
  const last = parts.pop()!;
  return CompiledQuery.raw(`with ${parts.map((part, i) => `"w${i + 1}" as (${part})`).join(', ')} ${last}`, parameters);
}

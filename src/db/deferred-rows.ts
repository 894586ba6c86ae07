/**
 * Rows left to be written together at the end of a transaction: a group commit's jobs each add the
 * rows of what they write, and the batch inserts every table's rows with one multi-row statement (in
 * slices far below the bound-parameter limits) instead of a statement per job and table. On
 * PostgreSQL, where each statement is a round trip made under the batch's lock, that is most of a
 * batch's time (docs/performance.md, "Round 2, fourth pass"). Writes that are not plain inserts (upserts)
 * are collected as items and handed to their own flush, once, with every item of their name.
 *
 * What was added is written in the order its table (or name) was first added, after the names given to
 * the constructor, which go first in their order: a job that adds its parent row (bookings) before its
 * children (booking_tables, booking_history) keeps the foreign keys satisfied, and a parent only some jobs
 * add (a new guest record) is named first. A row added here is not visible to reads of the same
 * transaction until `write`: only rows that nothing later in the transaction reads may be deferred (the
 * caller decides which).
 */
import type { Insertable } from 'kysely';
import { chunked } from './batch.js';
import type { Database } from './schema.js';
import { kyselyOf, type Conn } from './transaction.js';

type Table = keyof Database & string;

type Waiting =
  | { kind: 'rows'; table: Table; rows: Insertable<Database[Table]>[] }
  | { kind: 'items'; items: unknown[]; flush: (conn: Conn, items: unknown[]) => Promise<void> };

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

  /** How many rows and collected items are waiting. */
  get size(): number {
    let size = 0;
    for (const waiting of this.waiting.values()) size += waiting.kind === 'rows' ? waiting.rows.length : waiting.items.length;
    return size;
  }

  /** Writes what is waiting: the constructor's names first, then the rest in the order first added. */
  async write(conn: Conn): Promise<void> {
    const waiting = this.waiting;
    this.waiting = new Map();
    const order = [...this.first.filter((name) => waiting.has(name)), ...[...waiting.keys()].filter((name) => !this.first.includes(name))];
    for (const name of order) {
      const next = waiting.get(name)!;
      if (next.kind === 'items') await next.flush(conn, next.items);
      else for (const chunk of chunked(next.rows)) await kyselyOf(conn).insertInto(next.table).values(chunk).execute();
    }
  }
}

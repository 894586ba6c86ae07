/**
 * Rows left to be written together at the end of a transaction: a group commit's jobs each add the
 * rows of what they write, and the batch inserts every table's rows with one multi-row statement (in
 * slices far below the bound-parameter limits) instead of a statement per job and table. On
 * PostgreSQL, where each statement is a round trip made under the batch's lock, that is most of a
 * batch's time (docs/performance.md, "Round 2, fourth pass").
 *
 * Tables are written in the order their first rows were added, so a job that adds its parent row
 * (bookings) before its children (booking_tables, booking_history) keeps the foreign keys satisfied.
 * A row added here is not visible to reads of the same transaction until `write`: only rows that
 * nothing later in the transaction reads may be deferred (the caller decides which).
 */
import type { Insertable } from 'kysely';
import { chunked } from './batch.js';
import type { Database } from './schema.js';
import { kyselyOf, type Conn } from './transaction.js';

type Table = keyof Database & string;

type Flush = (conn: Conn, items: unknown[]) => Promise<void>;

export class DeferredRows {
  private readonly tables = new Map<Table, Insertable<Database[Table]>[]>();
  private readonly collected = new Map<string, { items: unknown[]; flush: Flush }>();

  /** Leaves `rows` of `table` to be written by `write`. Every row of a table must name the same columns. */
  add<T extends Table>(table: T, rows: readonly Insertable<Database[T]>[]): void {
    const waiting = this.tables.get(table);
    if (waiting) waiting.push(...(rows as Insertable<Database[Table]>[]));
    else this.tables.set(table, [...(rows as Insertable<Database[Table]>[])]);
  }

  /**
   * Leaves `item` to `flush`, which `write` calls once, after the rows, with every item collected under
   * `name` (writes that are not plain inserts: the guest roster's upserts, `joinRosterMany`).
   */
  collect<T>(name: string, item: T, flush: (conn: Conn, items: T[]) => Promise<void>): void {
    const waiting = this.collected.get(name);
    if (waiting) waiting.items.push(item);
    else this.collected.set(name, { items: [item], flush: flush as Flush });
  }

  /** How many rows and collected items are waiting. */
  get size(): number {
    let rows = 0;
    for (const waiting of this.tables.values()) rows += waiting.length;
    for (const { items } of this.collected.values()) rows += items.length;
    return rows;
  }

  /** Writes the waiting rows, a statement per table (and slice), in the order the tables were first added; then the collected items. */
  async write(conn: Conn): Promise<void> {
    const tables = [...this.tables];
    const collected = [...this.collected.values()];
    this.tables.clear();
    this.collected.clear();
    for (const [table, rows] of tables) {
      for (const chunk of chunked(rows)) await kyselyOf(conn).insertInto(table).values(chunk).execute();
    }
    for (const { items, flush } of collected) await flush(conn, items);
  }
}

/**
 * Column conventions shared by every migration so one migration set runs on SQLite and PostgreSQL:
 * ids and timestamps are text (ISO 8601 UTC), booleans are integer 0/1, JSON is text, money is integer pence.
 */
import type { CreateTableBuilder } from 'kysely';

export function idColumn<T extends string>(table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return table.addColumn('id', 'text', (c) => c.primaryKey());
}

export function timestamps<T extends string>(table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return table.addColumn('created_at', 'text', (c) => c.notNull()).addColumn('updated_at', 'text', (c) => c.notNull());
}

import { DEFAULT_MIGRATION_TABLE, Migrator, type Kysely, type MigrationProvider } from 'kysely';
import type { Db } from './connect.js';
import { migrations } from './migrations/index.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** A failed migration run: the migration that failed (none when the run could not start) and why. */
export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    readonly migrationName: string | undefined,
    readonly reason: string,
  ) {
    super(migrationName ? `Migration ${migrationName} failed: ${reason}` : `Migrations could not run: ${reason}`);
  }
}

/**
 * Whether the recorded migrations differ from ours. One read, where the migrator would first introspect
 * every table (a query per table on SQLite): every start and every CLI command asks, and the answer is
 * almost always no. Any doubt (no bookkeeping table yet, a migration we do not know) is a yes, and the
 * migrator decides under its lock as before.
 */
async function anyPending(db: Db): Promise<boolean> {
  try {
    const kysely = db.schema ? db.kysely.withSchema(db.schema) : db.kysely;
    const rows = await (kysely as unknown as Kysely<Record<string, { name: string }>>)
      .selectFrom(DEFAULT_MIGRATION_TABLE)
      .select('name')
      .execute();
    const ours = Object.keys(migrations);
    return rows.length !== ours.length || rows.some((row) => !(row.name in migrations));
  } catch {
    return true;
  }
}

/** Applies pending migrations; throws a MigrationError naming the failing migration. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  if (!(await anyPending(db))) return [];
  const migrator = new Migrator({ db: db.kysely, provider, ...(db.schema ? { migrationTableSchema: db.schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message || String((error as NodeJS.ErrnoException).code ?? error.name) : String(error);
    throw new MigrationError(failed?.migrationName, reason);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

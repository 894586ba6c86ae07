import { Migrator, type MigrationProvider } from 'kysely';
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

/** Applies pending migrations; throws a MigrationError naming the failing migration. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider, ...(db.schema ? { migrationTableSchema: db.schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message || String((error as NodeJS.ErrnoException).code ?? error.name) : String(error);
    throw new MigrationError(failed?.migrationName, reason);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

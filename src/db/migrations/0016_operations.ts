/**
 * Running it in production.
 * - job_runs (platform): one row per background job that runs once per period across all instances (the
 *   retention pass, scheduled backups): the instance whose conditional update moves `next_run_at` runs it.
 * - guest_erasures (guests module): the erasure ledger. A guest erased stays erased when an older backup is
 *   restored: `maitred restore` re-applies the ledger it finds in the database it replaces.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', 'text', (c) => c.notNull())
    .addColumn('last_started_at', 'text')
    .addColumn('last_finished_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createTable('guest_erasures')
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('erased_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('guest_erasures_pk', ['operator_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('guest_erasures').execute();
  await db.schema.dropTable('job_runs').execute();
}

/**
 * Promoters (promoters module): organisers who run events at venues they do not own. A promoter is a
 * user with the `promoter` role (no operator account). `promoter_agreements` is one row per venue and
 * promoter (its status and the revenue share, whole percent, the venue sets); `promoter_invitations`
 * the venue's emailed invitations (only a SHA-256 of the token is kept); `promoter_ledger` one row per
 * ticket sale of a promoter's event with the share at the time of the sale. `events.promoter_id` (the
 * events module's table) names the promoter who submitted the event.
 */
import type { Kysely } from 'kysely';
import { idColumn, timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('promoter_id', 'text').execute();
  await db.schema.createIndex('events_promoter_idx').on('events').columns(['promoter_id', 'event_date']).execute();

  await timestamps(
    idColumn(db.schema.createTable('promoter_agreements'))
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
      .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text', (c) => c.notNull())
      .addColumn('share_percent', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('decided_at', 'text'),
  ).execute();
  await db.schema
    .createIndex('promoter_agreements_pair_idx')
    .on('promoter_agreements')
    .columns(['venue_id', 'promoter_id'])
    .unique()
    .execute();
  await db.schema.createIndex('promoter_agreements_promoter_idx').on('promoter_agreements').columns(['promoter_id']).execute();

  await idColumn(db.schema.createTable('promoter_invitations'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('share_percent', 'integer', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('promoter_invitations_venue_email_idx').on('promoter_invitations').columns(['venue_id', 'email']).execute();

  await idColumn(db.schema.createTable('promoter_ledger'))
    .addColumn('promoter_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('share_percent', 'integer', (c) => c.notNull())
    .addColumn('share_pence', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('promoter_ledger_booking_idx').on('promoter_ledger').columns(['booking_id', 'kind']).unique().execute();
  await db.schema.createIndex('promoter_ledger_promoter_idx').on('promoter_ledger').columns(['promoter_id', 'event_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('promoter_ledger').execute();
  await db.schema.dropTable('promoter_invitations').execute();
  await db.schema.dropTable('promoter_agreements').execute();
  await db.schema.dropIndex('events_promoter_idx').execute();
  await db.schema.alterTable('events').dropColumn('promoter_id').execute();
}

/**
 * Messages and reminders (docs/messages.md).
 *
 * Platform (src/platform/sms/): `sms_outbox`, text messages queued with the change that causes them and
 * sent by a background job (or kept, with the simulated provider); `sms_opt_outs`, numbers that texted
 * STOP; `message_consents`, a guest's consent per operator account and channel (mail, SMS), keyed by the
 * address; `message_templates`, a venue's own wording of its guest messages (defaults otherwise).
 *
 * Bookings: `reminder_settings` per venue; `booking_reminders`, one row per booking and offset, whose
 * primary key is what makes a reminder go out once however many instances run the pass; and
 * `bookings.guest_confirmed_at`, when the guest confirmed through a reminder.
 */
import type { Kysely } from 'kysely';
import { idColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db.schema.createTable('sms_outbox'))
    .addColumn('venue_id', 'text')
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema.createIndex('sms_outbox_due_idx').on('sms_outbox').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('sms_outbox_created_idx').on('sms_outbox').columns(['created_at']).execute();

  await db.schema
    .createTable('sms_opt_outs')
    .addColumn('phone', 'text', (c) => c.primaryKey())
    .addColumn('opted_out_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('message_consents')
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_consents_pk', ['operator_id', 'channel', 'address'])
    .execute();

  await db.schema
    .createTable('message_templates')
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_templates_pk', ['venue_id', 'kind'])
    .execute();

  await db.schema
    .createTable('reminder_settings')
    .addColumn('venue_id', 'text', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('offsets', 'text', (c) => c.notNull())
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('quiet_start', 'text')
    .addColumn('quiet_end', 'text')
    .addColumn('quiet_mode', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('booking_reminders')
    .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('offset_minutes', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('booking_reminders_pk', ['booking_id', 'offset_minutes'])
    .execute();

  await db.schema.alterTable('bookings').addColumn('guest_confirmed_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('guest_confirmed_at').execute();
  for (const table of ['booking_reminders', 'reminder_settings', 'message_templates', 'message_consents', 'sms_opt_outs', 'sms_outbox'])
    await db.schema.dropTable(table).execute();
}

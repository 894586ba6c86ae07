/**
 * Mail rendered when sent: an outbox row may name a template and the few values it renders from
 * (`template`, `template_data` JSON) instead of carrying its bodies. The sender renders it after the
 * commit (platform/mail/mail.ts); such a row stores its subject, an empty text body and no attachments.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('template', 'text').execute();
  await db.schema.alterTable('mail_outbox').addColumn('template_data', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('template_data').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('template').execute();
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

/** Outgoing mail (src/platform/mail): queued with the change that causes it, delivered after commit. */
export interface MailOutboxTable {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** Display name of the From (the venue's name); the address is MAIL_FROM's at delivery time. */
  sender_name: string | null;
  reply_to: string | null;
  /** JSON array of `{ filename, content_type, content }` text attachments. */
  attachments: string;
  /** `kept` (no SMTP_URL: outbox only), `pending`, `sending` (claimed), `sent`, `failed` (gave up). */
  status: string;
  attempts: number;
  /** When a `pending` row is due, or when a `sending` row's claim lapses. */
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /**
   * A row rendered when sent: the template's name and its values (JSON); `subject` is stored, the
   * bodies and attachments are not (see platform/mail/mail.ts). Null for a row stored rendered.
   */
  template: string | null;
  template_data: string | null;
}

/** A background job run once per period across all instances (platform/scheduler.ts). */
export interface JobRunsTable {
  name: string;
  /** When it is next due; the instance that moves it on runs the job. */
  next_run_at: string;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_error: string | null;
}

export interface PlatformTables {
  platform_settings: PlatformSettingsTable;
  mail_outbox: MailOutboxTable;
  job_runs: JobRunsTable;
  sms_outbox: SmsOutboxTable;
  sms_opt_outs: SmsOptOutsTable;
  message_consents: MessageConsentsTable;
  message_templates: MessageTemplatesTable;
}

/** Outgoing text messages (src/platform/sms): queued with the change that causes them. */
export interface SmsOutboxTable {
  id: string;
  venue_id: string | null;
  /** E.164 number. */
  recipient: string;
  body: string;
  /** What the message is (`reminder`, `waitlist_ready`, …), for the outbox listing. */
  kind: string;
  /** `kept` (simulated provider), `pending`, `sending` (claimed), `sent`, `failed`, `opted_out` (never sent: STOP). */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  /** The provider's message id once sent. */
  provider_id: string | null;
  created_at: string;
  sent_at: string | null;
}

/** Numbers that texted STOP (or an equivalent keyword): nothing is sent to them until they text START. */
export interface SmsOptOutsTable {
  phone: string;
  opted_out_at: string;
}

/** A guest's consent to messages on one channel, per operator account, keyed by the address (email or E.164 number). */
export interface MessageConsentsTable {
  operator_id: string;
  /** `mail` or `sms`. */
  channel: string;
  address: string;
  granted: number;
  /** Where it was given or withdrawn: `booking`, `unsubscribe_link`, `sms_stop`. */
  source: string;
  updated_at: string;
}

/** A venue's own wording of a guest message (kinds and placeholders: src/domain/message-templates.ts). */
export interface MessageTemplatesTable {
  venue_id: string;
  kind: string;
  body: string;
  updated_at: string;
}

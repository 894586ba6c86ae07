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
}

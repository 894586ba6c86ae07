/** Every migration, in order. Migrations are frozen once landed: add a new one instead of editing. */
import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_payments.js';
import * as m0003 from './0003_venues.js';
import * as m0004 from './0004_availability.js';
import * as m0005 from './0005_catalogue.js';
import * as m0006 from './0006_mail.js';
import * as m0007 from './0007_auth_security.js';
import * as m0008 from './0008_booking_engine.js';
import * as m0009 from './0009_vouchers.js';
import * as m0010 from './0010_guests.js';
import * as m0011 from './0011_events.js';
import * as m0012 from './0012_guest_identity.js';
import * as m0014 from './0014_booking_rules.js';
import * as m0015 from './0015_payment_retries.js';
import * as m0016 from './0016_operations.js';
import * as m0017 from './0017_guest_journey.js';
import * as m0018 from './0018_write_path.js';
import * as m0019 from './0019_invitations.js';
import * as m0020 from './0020_messages_reminders.js';
import * as m0021 from './0021_waitlist.js';
import * as m0022 from './0022_webhooks.js';
import * as m0023 from './0023_audit_log.js';
import * as m0024 from './0024_guest_account.js';
import * as m0025 from './0025_memberships.js';
import * as m0026 from './0026_promoters.js';
import * as m0027 from './0027_mail_templates.js';
import * as m0028 from './0028_session_versions.js';
import * as m0029 from './0029_promoter_sign_up.js';

export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_payments': m0002,
  '0003_venues': m0003,
  '0004_availability': m0004,
  '0005_catalogue': m0005,
  '0006_mail': m0006,
  '0007_auth_security': m0007,
  '0008_booking_engine': m0008,
  '0009_vouchers': m0009,
  '0010_guests': m0010,
  '0011_events': m0011,
  '0012_guest_identity': m0012,
  '0014_booking_rules': m0014,
  '0015_payment_retries': m0015,
  '0016_operations': m0016,
  '0017_guest_journey': m0017,
  '0018_write_path': m0018,
  '0019_invitations': m0019,
  '0020_messages_reminders': m0020,
  '0021_waitlist': m0021,
  '0022_webhooks': m0022,
  '0023_audit_log': m0023,
  '0024_guest_account': m0024,
  '0025_memberships': m0025,
  '0026_promoters': m0026,
  '0027_mail_templates': m0027,
  '0028_session_versions': m0028,
  '0029_promoter_sign_up': m0029,
};

/** The whole database as Kysely sees it: each module declares its own tables in <module>.table.ts. */
import type { PlatformTables } from './platform.table.js';
import type { AuthTables } from '../modules/auth/auth.table.js';
import type { TeamTables } from '../modules/team/team.table.js';
import type { VenuesTables } from '../modules/venues/venues.table.js';
import type { PaymentsTables } from '../modules/payments/payments.table.js';
import type { AvailabilityTables } from '../modules/availability/availability.table.js';
import type { FloorTables } from '../modules/tables/tables.table.js';
import type { ProfilesTables } from '../modules/profiles/profiles.table.js';
import type { CatalogueTables } from '../modules/catalogue/catalogue.table.js';
import type { BookingsTables } from '../modules/bookings/core/bookings.table.js';
import type { VouchersTables } from '../modules/vouchers/vouchers.table.js';
import type { GuestsTables } from '../modules/guests/guests.table.js';
import type { EventsTables } from '../modules/events/events.table.js';
import type { AccountTables } from '../modules/account/account.table.js';
import type { WebhooksTables } from '../modules/webhooks/webhooks.table.js';
import type { WaitlistTables } from '../modules/waitlist/waitlist.table.js';
import type { PromotersTables } from '../modules/promoters/promoters.table.js';
import type { MembershipsTables } from '../modules/memberships/memberships.table.js';
import type { AuditTables } from '../modules/audit/audit.table.js';

export interface Database
  extends
    PlatformTables,
    AuthTables,
    TeamTables,
    VenuesTables,
    PaymentsTables,
    AvailabilityTables,
    FloorTables,
    ProfilesTables,
    CatalogueTables,
    BookingsTables,
    VouchersTables,
    GuestsTables,
    EventsTables,
    AccountTables,
    WebhooksTables,
    WaitlistTables,
    PromotersTables,
    MembershipsTables,
    AuditTables {}

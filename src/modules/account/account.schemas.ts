import { Type } from 'typebox';
import { Email, Nullable } from '../../platform/http.js';

export const CodeRequestBody = Type.Object({ email: Email });
export const CodeRequested = Type.Object({ code_sent: Type.Literal(true) });
export const CodeVerifyBody = Type.Object({
  email: Email,
  code: Type.String({ minLength: 6, maxLength: 6, pattern: '^\\d{6}$', description: 'the 6-digit code from the email' }),
});
export const AccountSession = Type.Object({
  user: Type.Object({ id: Type.String(), role: Type.String(), name: Type.String(), email: Type.String(), operator_id: Type.Null() }),
  token: Type.String(),
});

const Venue = Type.Object({ id: Type.String(), name: Type.String(), address: Type.String(), timezone: Type.String() });

export const MyBooking = Type.Object({
  id: Type.String(),
  reference: Nullable(Type.String()),
  kind: Type.String(),
  status: Type.String(),
  venue: Venue,
  date: Type.String({ description: 'venue-local date' }),
  time: Nullable(Type.String({ description: 'venue-local start time' })),
  duration_minutes: Nullable(Type.Integer()),
  party_size: Type.Integer(),
  upcoming: Type.Boolean(),
  qr_url: Nullable(Type.String({ description: 'the public booking QR endpoint (null: the booking has none)' })),
  manage_token: Type.String({ description: 'the manage link token: read and cancel with /api/public/bookings/manage' }),
});
export const MyBookings = Type.Object({ upcoming: Type.Array(MyBooking), past: Type.Array(MyBooking) });

export const MyTicket = Type.Object({
  booking_id: Type.String(),
  reference: Nullable(Type.String()),
  status: Type.String(),
  venue: Venue,
  event: Type.Object({ id: Type.String(), name: Type.String(), date: Type.String(), start_time: Nullable(Type.String()) }),
  upcoming: Type.Boolean(),
  tickets: Type.Array(Type.Object({ ticket_type: Type.String(), quantity: Type.Integer(), unit_price_pence: Type.Integer() })),
  total_pence: Type.Integer(),
  qr_code: Nullable(Type.String({ description: 'PNG data URL of the door QR (null when the booking has none)' })),
});
export const MyTickets = Type.Object({ data: Type.Array(MyTicket) });

export const MyVoucher = Type.Object({
  id: Type.String(),
  code: Type.String(),
  venue: Type.Object({ id: Type.String(), name: Type.String() }),
  amount_pence: Type.Integer(),
  remaining_pence: Type.Integer(),
  status: Type.String(),
  mode: Type.String(),
  roles: Type.Array(Type.String()),
  recipient_name: Nullable(Type.String()),
  created_at: Type.String(),
  qr_code: Type.String({ description: 'PNG data URL of the voucher code' }),
});
export const MyVouchers = Type.Object({ data: Type.Array(MyVoucher) });

export const LedgerEntry = Type.Object({
  id: Type.String(),
  type: Type.String({ description: '`grant`, `topup`, `spend` or `refund`' }),
  delta: Type.Integer(),
  note: Nullable(Type.String()),
  booking_id: Nullable(Type.String()),
  created_at: Type.String(),
});
export const KeysLedger = Type.Object({ balance: Type.Integer(), pence_per_key: Type.Integer(), data: Type.Array(LedgerEntry) });
export const TopUpBody = Type.Object({ keys: Type.Integer({ minimum: 1, maximum: 500 }) });
export const TopUpResult = Type.Object({
  session_id: Type.String(),
  checkout_url: Type.String(),
  keys: Type.Integer(),
  amount_pence: Type.Integer(),
});

const PreferenceFields = {
  marketing_email: Type.Boolean(),
  marketing_sms: Type.Boolean(),
  reminders_email: Type.Boolean(),
  reminders_sms: Type.Boolean(),
};
export const PreferencesResult = Type.Object({ ...PreferenceFields, updated_at: Nullable(Type.String()) });
export const PreferencesBody = Type.Partial(Type.Object(PreferenceFields));

export const EraseBody = Type.Object({ confirm_email: Type.String({ minLength: 1, maxLength: 254 }) });
export const EraseResult = Type.Object({ success: Type.Literal(true), operators_erased: Type.Integer() });

export const ExportResult = Type.Object(
  {
    exported_at: Type.String(),
    account: Type.Object({
      id: Type.String(),
      name: Type.String(),
      email: Type.String(),
      phone: Nullable(Type.String()),
      membership_tier: Nullable(Type.String()),
      created_at: Type.String(),
    }),
    preferences: PreferencesResult,
    keys: Type.Object({ balance: Type.Integer(), ledger: Type.Array(LedgerEntry) }),
    bookings: Type.Array(Type.Omit(MyBooking, ['manage_token'])),
    tickets: Type.Array(Type.Omit(MyTicket, ['qr_code'])),
    vouchers: Type.Array(Type.Omit(MyVoucher, ['qr_code'])),
  },
  { description: 'Everything the platform holds on the guest' },
);

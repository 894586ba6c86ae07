/** Request and response schemas of gift vouchers: settings, issuing, the list, look-up, redemption, refund and the public purchase. */
import { Type, type Static } from 'typebox';
import { Nullable, Toggle } from '../../platform/http.js';
import { PagedList, pagingQueryFields } from '../../platform/paging.js';
import { VoucherSettings } from '../venues/index.js';

/** Bounds of every voucher amount: the provider's least charge, and £10,000 (50 of them stay within one charge). */
export const MIN_VOUCHER_PENCE = 50;
export const MAX_VOUCHER_PENCE = 1_000_000;
export const MAX_VOUCHER_QTY = 50;

const Pence = Type.Integer({ minimum: MIN_VOUCHER_PENCE, maximum: MAX_VOUCHER_PENCE, description: 'pence' });
const Qty = Type.Integer({ minimum: 1, maximum: MAX_VOUCHER_QTY });
const Name = Type.String({ maxLength: 200 });
const Message = Type.String({ maxLength: 1000 });
const Note = Type.String({ maxLength: 1000 });
/** A code as typed: grouped or plain, any case; checked by the service (a code that cannot exist is `not_found`). */
const CodeInput = Type.String({ minLength: 1, maxLength: 40, description: '12 characters, grouped `XXXX-XXXX-XXXX` or plain, any case' });
const IntentId = Type.String({ minLength: 1, maxLength: 255 });
/** An address the mail service will send to (no characters that could break a mail header). */
const Email = Type.String({
  maxLength: 254,
  pattern: '^[^\\s@<>,;:"()\\[\\]\\\\]+@[^\\s@<>,;:"()\\[\\]\\\\]+\\.[^\\s@<>,;:"()\\[\\]\\\\]+$',
  description: 'an email address',
});

export const VoucherParams = Type.Object({ venueId: Type.String(), id: Type.String() });

// Settings
/** The record is the venues module's (its widget toggle and public configs read it). */
export { VoucherSettings };
export const VoucherSettingsResult = Type.Object({ data: VoucherSettings });

export const VoucherSettingsBody = Type.Object({
  enabled: Type.Optional(Toggle),
  expiration_months: Type.Optional(Type.Integer({ minimum: 1, maximum: 120 })),
  min_amount_pence: Type.Optional(Pence),
  max_amount_pence: Type.Optional(Pence),
  fixed_amounts: Type.Optional(Nullable(Type.Array(Pence, { maxItems: 20, uniqueItems: true }))),
  allow_custom: Type.Optional(Toggle),
  min_qty: Type.Optional(Qty),
  max_qty: Type.Optional(Qty),
  terms: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
});
export type VoucherSettingsBody = Static<typeof VoucherSettingsBody>;

// Vouchers
const Status = Type.Enum(['active', 'redeemed', 'refunded', 'expired']);

export const Voucher = Type.Object({
  id: Type.String(),
  code: Type.String({ description: 'the 12 characters' }),
  display_code: Type.String({ description: 'extension: the code grouped as shown, `XXXX-XXXX-XXXX`' }),
  amount_pence: Type.Integer(),
  remaining_pence: Type.Integer({ description: 'extension (partial redemption): what is left to spend' }),
  status: Status,
  expires_at: Type.String({ description: 'the last day it can be spent (venue-local date)' }),
  venue_id: Type.String(),
  venue_name: Type.String(),
  mode: Type.Enum(['comp', 'paid']),
  recipient_name: Nullable(Type.String()),
  recipient_email: Nullable(Type.String()),
  message: Nullable(Type.String()),
  emailed: Type.Boolean(),
  refunded_pence: Type.Integer(),
  created_at: Type.String(),
});

export const VoucherList = PagedList(Voucher, 'The venue’s and its sister venues’ vouchers, newest first');
export const VoucherListQuery = Type.Object({ limit: pagingQueryFields.limit, offset: pagingQueryFields.offset });

export const Redemption = Type.Object({
  amount_pence: Type.Integer(),
  note: Nullable(Type.String()),
  venue_id: Type.String(),
  redeemed_by: Nullable(Type.Object({ id: Type.String(), name: Nullable(Type.String()) })),
  redeemed_at: Type.String(),
});

export const VoucherIntentBody = Type.Object({ amount_pence: Pence });
export const VoucherIntentResult = Type.Object({
  client_secret: Type.String(),
  intent_id: Type.String(),
  publishable_key: Nullable(Type.String()),
  amount_pence: Type.Integer(),
});

export const IssueBody = Type.Object({
  amount_pence: Pence,
  mode: Type.Optional(Type.String({ maxLength: 20, description: '`paid` (needs `payment_intent_id`); anything else is `comp`' })),
  recipient_name: Type.Optional(Nullable(Name)),
  recipient_email: Type.Optional(Nullable(Email)),
  message: Type.Optional(Nullable(Message)),
  payment_intent_id: Type.Optional(Nullable(IntentId)),
});
export type IssueBody = Static<typeof IssueBody>;
export const IssueResult = Type.Object({
  success: Type.Boolean(),
  id: Type.String(),
  code: Type.String(),
  display_code: Type.String({ description: 'extension: the code grouped' }),
  expires_at: Type.String({ description: 'extension: the last day it can be spent' }),
  emailed: Type.Boolean({ description: 'a voucher mail to `recipient_email` was queued with the voucher' }),
});

export const LookupQuery = Type.Object({ code: CodeInput });
export const LookupResult = Type.Object({
  found: Type.Boolean(),
  voucher: Nullable(Type.Object({ ...Voucher.properties, redemptions: Type.Array(Redemption) })),
  redeemable: Type.Boolean(),
  reason: Type.String({
    description: '`ok`, or `not_found`, `wrong_venue`, `refunded`, `already_redeemed`, `expired` (and `insufficient_balance` on redeem)',
  }),
});

export const RedeemBody = Type.Object({
  code: CodeInput,
  note: Type.Optional(Nullable(Note)),
  amount_pence: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_VOUCHER_PENCE, description: 'extension: spend only this much of the balance' }),
  ),
});
export type RedeemBody = Static<typeof RedeemBody>;
export const RedeemResult = Type.Object({
  success: Type.Boolean(),
  reason: Type.String(),
  voucher: Nullable(
    Type.Object({
      id: Type.String(),
      code: Type.String(),
      amount_pence: Type.Integer(),
      status: Status,
      remaining_pence: Type.Integer({ description: 'extension: the balance left' }),
      redeemed_pence: Type.Integer({ description: 'extension: what this redemption took (0 when it failed)' }),
    }),
  ),
});

export const RefundResult = Type.Object({
  success: Type.Boolean(),
  refunded_pence: Type.Integer(),
  refund_id: Type.String(),
});

// Public purchase
export const DELIVERIES = ['email', 'purchaser'] as const;
export const PurchaseBody = Type.Object({
  venue_id: Type.String({ minLength: 1, maxLength: 100 }),
  amount_pence: Pence,
  quantity: Qty,
  delivery: Type.Enum([...DELIVERIES], {
    description: '`email`: mailed to the recipient; `purchaser`: mailed to the purchaser to pass on',
  }),
  recipient_name: Type.Optional(Nullable(Name)),
  recipient_email: Type.Optional(Nullable(Email)),
  purchaser_name: Type.String({ minLength: 1, maxLength: 200 }),
  purchaser_email: Email,
  message: Type.Optional(Nullable(Message)),
  turnstile_token: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type PurchaseBody = Static<typeof PurchaseBody>;
export const PurchaseIntent = Type.Object({
  intent_id: Type.String(),
  client_secret: Type.String(),
  amount_pence: Type.Integer({ description: 'extension: the total charged (amount × quantity)' }),
  publishable_key: Nullable(Type.String({ description: 'extension' })),
});

export const FinalizeBody = Type.Object({ intent_id: IntentId });
export const FinalizeResult = Type.Object({
  success: Type.Boolean(),
  delivery: Type.String(),
  vouchers: Type.Array(
    Type.Object({
      code: Type.String(),
      display_code: Type.String({ description: 'extension' }),
      amount_pence: Type.Integer(),
      expires_at: Type.String(),
    }),
  ),
  payment_status: Type.String({ description: 'extension: the payment intent’s status (`succeeded` once paid)' }),
});

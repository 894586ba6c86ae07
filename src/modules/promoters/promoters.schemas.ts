/** TypeBox schemas of the promoters routes (docs/promoters.md). */
import { Type, type Static } from 'typebox';
import { Email, IdText, Nullable } from '../../platform/http.js';

const PersonName = Type.String({ minLength: 1, maxLength: 200 });
const Password = Type.String({ minLength: 8, maxLength: 200 });
const SharePercent = Type.Integer({
  minimum: 0,
  maximum: 100,
  description: 'The promoter’s share of their events’ ticket revenue, whole percent (0–100)',
});

export const VenuePromoterParams = Type.Object({ venueId: Type.String(), promoterId: Type.String() });
export const VenueInvitationParams = Type.Object({ venueId: Type.String(), id: Type.String() });
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const Agreement = Type.Object({
  id: Type.String(),
  venue_id: Type.String(),
  venue_name: Type.String(),
  promoter_id: Type.String(),
  promoter_name: Type.String(),
  promoter_email: Type.String(),
  status: Type.String({ description: '`pending` (asked for by the promoter), `active`, `declined` or `ended`' }),
  requested_by: Type.String({ description: '`venue` (an invitation) or `promoter` (a request)' }),
  share_percent: SharePercent,
  decided_at: Nullable(Type.String()),
  created_at: Type.String(),
});
export type Agreement = Static<typeof Agreement>;
export const AgreementList = Type.Object({ data: Type.Array(Agreement) });

export const PromoterInvitation = Type.Object({
  id: Type.String(),
  venue_id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  share_percent: SharePercent,
  invited_by: Nullable(Type.String()),
  created_at: Type.String(),
  expires_at: Type.String(),
});
export const PromoterInvitationList = Type.Object({ data: Type.Array(PromoterInvitation) });
export const PromoterInviteBody = Type.Object({ email: Email, name: PersonName, share_percent: SharePercent });
export type PromoterInviteBody = Static<typeof PromoterInviteBody>;

export const ShareBody = Type.Object({ share_percent: SharePercent });
export const AcceptRequestBody = Type.Object({ share_percent: Type.Optional(SharePercent) });

export const InvitationPreview = Type.Object({
  venue_name: Type.String(),
  email: Type.String(),
  name: Type.String(),
  share_percent: SharePercent,
  expires_at: Type.String(),
});
export const InvitationAcceptBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Password });
export const RegisterBody = Type.Object({ name: PersonName, email: Email, password: Password });
export const SignUpAccepted = Type.Object({
  verification_required: Type.Literal(true, { description: 'always true: a code (or a note that the address has an account) was mailed' }),
});
export const SignUpVerifyBody = Type.Object({
  email: Email,
  code: Type.String({ minLength: 6, maxLength: 6, pattern: '^\\d{6}$', description: 'the 6-digit code mailed by register' }),
});
export const PromoterSession = Type.Object({
  user: Type.Object({
    id: Type.String(),
    role: Type.String({ description: '`promoter`' }),
    name: Type.String(),
    email: Type.String(),
    operator_id: Type.Null(),
  }),
  token: Type.String(),
});
export const VenueRequestBody = Type.Object({ venue_id: IdText });

export const Submission = Type.Object({
  id: Type.String(),
  name: Type.String(),
  event_date: Type.String(),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String()),
  event_type: Nullable(Type.String()),
  description: Nullable(Type.String()),
  promoter_id: Type.String(),
  promoter_name: Type.String(),
  created_at: Type.String(),
});
export const SubmissionList = Type.Object({ data: Type.Array(Submission) });

export const LedgerRow = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  venue_id: Type.String(),
  booking_id: Type.String(),
  kind: Type.String({ description: '`sale` (one per booking) or `refund` (one per refund of it)' }),
  amount_pence: Type.Integer({ description: 'A sale: what the guest paid for the booking; a refund: what was given back, negative' }),
  share_percent: SharePercent,
  share_pence: Type.Integer({
    description:
      'A sale: the promoter’s share, amount × percent / 100 rounded down; a refund: what the share loses (negative, at the sale’s ' +
      'percent, so the booking’s net share is its net amount × percent / 100 rounded down, 0 after a full refund)',
  }),
  created_at: Type.String(),
});
const NetAmount = Type.Integer({ description: 'Sales less refunds, in pence' });
const NetShare = Type.Integer({ description: 'The promoter’s share of sales less what refunds took back, in pence' });
const Refunded = Type.Integer({ description: 'Refunded to guests, in pence (already taken off the net amount)' });
export const SalesList = Type.Object({
  data: Type.Array(LedgerRow),
  total_amount_pence: NetAmount,
  total_refunded_pence: Refunded,
  total_share_pence: NetShare,
});
export const Earnings = Type.Object({
  total_amount_pence: NetAmount,
  total_refunded_pence: Refunded,
  total_share_pence: NetShare,
  events: Type.Array(
    Type.Object({
      event_id: Type.String(),
      venue_id: Type.String(),
      sales: Type.Integer({ description: 'Sales (bookings) recorded' }),
      amount_pence: NetAmount,
      refunded_pence: Refunded,
      share_pence: NetShare,
    }),
  ),
});
export const PromoterEventCreated = Type.Object({ success: Type.Boolean(), id: Type.String() });

import { Type, type Static } from 'typebox';
import { Nullable } from '../../platform/http.js';

export const ConnectStartResult = Type.Object({ url: Type.String({ description: 'hosted onboarding address' }) });

export const PayoutStatusResult = Type.Object({
  connected: Type.Boolean({ description: 'the operator has a connected account at the provider' }),
  provider: Type.String({ description: '`simulated`, `stripe` or `none`' }),
  status: Type.Union([
    Type.Literal('not_started'),
    Type.Literal('onboarding'),
    Type.Literal('pending'),
    Type.Literal('enabled'),
    Type.Literal('unconfigured'),
    Type.Literal('error'),
  ]),
  charges_enabled: Type.Optional(Type.Boolean()),
  payouts_enabled: Type.Optional(Type.Boolean()),
  details_submitted: Type.Optional(Type.Boolean()),
  account_id: Type.Optional(Type.String()),
});
export type PayoutStatusResult = Static<typeof PayoutStatusResult>;

export const PayoutBalanceResult = Type.Object(
  {
    owed_pence: Type.Integer({
      description:
        'guest payments taken on the platform account before payouts were enabled, less fees and refunds, not yet ' +
        'transferred (negative when refunds came after a transfer)',
    }),
    in_transfer_pence: Type.Integer({ description: 'transfers to the connected account started and not yet confirmed' }),
    transferred_pence: Type.Integer({ description: 'owed money transferred to the connected account so far' }),
  },
  { description: 'Money the platform holds for the operator (integer pence)' },
);
export type PayoutBalanceResult = Static<typeof PayoutBalanceResult>;

export const IntentParams = Type.Object({ intentId: Type.String({ minLength: 1, maxLength: 255 }) });

export const ConfirmBody = Type.Object({
  payment_method: Type.String({ minLength: 1, maxLength: 100, description: '`pm_card_visa` or `pm_card_chargeDeclined`' }),
});

export const PaymentErrorDetail = Type.Object({
  type: Type.String(),
  code: Nullable(Type.String()),
  decline_code: Nullable(Type.String()),
  message: Type.String(),
});

export const ConfirmResult = Type.Object({
  id: Type.String(),
  status: Type.String({ description: '`succeeded`, `requires_capture` (card hold) or `requires_payment_method` (declined)' }),
  last_payment_error: Type.Optional(PaymentErrorDetail),
});

export const WebhookAck = Type.Object({ received: Type.Literal(true) });

export const KeysBalance = Type.Object({ balance: Type.Integer({ description: 'keys the user holds' }) });

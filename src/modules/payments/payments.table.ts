import type { Generated } from 'kysely';

/** An operator's connected account at one provider, with the status last read from it. */
export interface PaymentAccountsTable {
  operator_id: string;
  /** `simulated` or `stripe`: an account of one provider means nothing to another. */
  provider: string;
  account_id: string;
  details_submitted: Generated<number>;
  charges_enabled: Generated<number>;
  payouts_enabled: Generated<number>;
  /** onboarding | pending | enabled (spec "Payout status"). */
  status: string;
  created_at: string;
  updated_at: string;
}

/** One payment the platform asked the provider for (an intent or a checkout session). */
export interface PaymentRecordsTable {
  id: string;
  provider: string;
  /** Null for the platform's own sales to guests (keys, memberships): no operator ledger. */
  operator_id: string | null;
  venue_id: string | null;
  /** `metadata.kind` of the payment. */
  kind: string | null;
  intent_id: string | null;
  checkout_session_id: string | null;
  idempotency_key: string | null;
  amount_pence: number;
  /** Platform fee on the full amount. */
  fee_pence: number;
  /** `destination` (charge on the operator's connected account) or `platform` (owed to the operator). */
  mode: string;
  destination_account: string | null;
  capture_method: string;
  /** creating | failed | the provider's intent status | open | complete | expired */
  status: string;
  created_at: string;
  updated_at: string;
}

/**
 * The operator money ledger. Amounts are signed from the operator's side: `charge` +, `fee` −,
 * `refund` −, `fee_refund` +, `transfer` − (moves owed platform-mode money to the connected account).
 */
export interface PaymentLedgerTable {
  id: string;
  operator_id: string;
  venue_id: string | null;
  record_id: string | null;
  type: 'charge' | 'fee' | 'refund' | 'fee_refund' | 'transfer';
  mode: string;
  amount_pence: number;
  /** Unique per money movement, so recording the same movement twice is a no-op. */
  entry_key: string;
  provider_ref: string | null;
  /** `completed`, or for transfers `pending` (claimed, provider call in flight) and `failed`. */
  status: string;
  note: string | null;
  created_at: string;
}

export interface WebhookEventsTable {
  /** The provider's event id: a redelivery finds its row and changes nothing. */
  id: string;
  type: string;
  kind: string | null;
  target_key: string | null;
  outcome: string;
  event_created: number | null;
  payload: string;
  received_at: string;
}

/** At most one fulfilment (completed or expired) per target, whatever the event. */
export interface PaymentFulfilmentsTable {
  target_key: string;
  kind: string;
  outcome: string;
  event_id: string;
  session_id: string | null;
  created_at: string;
}

/** The guests' keys (in-app credit): the balance is the sum of `delta`. */
export interface BillingLedgerTable {
  id: string;
  user_id: string;
  /** `grant`, `topup`, `spend`, `refund`. */
  type: string;
  delta: number;
  note: string | null;
  booking_id: string | null;
  created_at: string;
}

export interface SimPaymentIntentsTable {
  id: string;
  client_secret: string;
  amount: number;
  currency: string;
  status: string;
  capture_method: string;
  amount_capturable: Generated<number>;
  amount_received: Generated<number>;
  amount_refunded: Generated<number>;
  /** JSON object of strings. */
  metadata: string;
  description: string | null;
  destination: string | null;
  application_fee_amount: number | null;
  payment_method: string | null;
  /** JSON `{ type, code, decline_code, message }` or null. */
  last_payment_error: string | null;
  cancellation_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface SimRefundsTable {
  id: string;
  payment_intent_id: string;
  amount: number;
  currency: string;
  status: string;
  reverse_transfer: Generated<number>;
  refund_application_fee: Generated<number>;
  metadata: string;
  created_at: string;
}

export interface SimCheckoutSessionsTable {
  id: string;
  payment_intent_id: string | null;
  amount_total: number;
  currency: string;
  name: string;
  status: string;
  payment_status: string;
  metadata: string;
  destination: string | null;
  application_fee_amount: number | null;
  customer_email: string | null;
  success_url: string;
  cancel_url: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface SimAccountsTable {
  id: string;
  email: string | null;
  business_name: string | null;
  metadata: string;
  details_submitted: Generated<number>;
  charges_enabled: Generated<number>;
  payouts_enabled: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface SimTransfersTable {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  metadata: string;
  created_at: string;
}

export interface SimIdempotencyKeysTable {
  key: string;
  /** What the key was first used for, and a hash of its parameters: reuse for anything else is refused. */
  operation: string;
  request_hash: string;
  object_id: string;
  created_at: string;
}

/** A hosted onboarding link: a single-use bearer capability, stored as the SHA-256 of its token. */
export interface SimAccountLinksTable {
  token_hash: string;
  account_id: string;
  return_url: string;
  refresh_url: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** An event for the platform's webhook: `pending` until delivered, retried with backoff, `failed` after 3 days. */
export interface SimEventsTable {
  id: string;
  type: string;
  /** The event as JSON text. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string;
  created_at: string;
}

/** A payment intent whose cancel failed (an undo that must not be lost): retried by the sweep. */
export interface PaymentIntentCancelsTable {
  intent_id: string;
  idempotency_key: string;
  operator_id: string | null;
  venue_id: string | null;
  /** What the intent was for, for the logs: e.g. `booking:bkg_…`. */
  subject: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
}

export interface PaymentsTables {
  payment_accounts: PaymentAccountsTable;
  payment_records: PaymentRecordsTable;
  payment_ledger: PaymentLedgerTable;
  webhook_events: WebhookEventsTable;
  payment_fulfilments: PaymentFulfilmentsTable;
  billing_ledger: BillingLedgerTable;
  sim_payment_intents: SimPaymentIntentsTable;
  sim_refunds: SimRefundsTable;
  sim_checkout_sessions: SimCheckoutSessionsTable;
  sim_accounts: SimAccountsTable;
  sim_transfers: SimTransfersTable;
  sim_idempotency_keys: SimIdempotencyKeysTable;
  sim_account_links: SimAccountLinksTable;
  sim_events: SimEventsTable;
  payment_intent_cancels: PaymentIntentCancelsTable;
}

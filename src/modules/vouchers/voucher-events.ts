/** The vouchers' domain events (platform/domain-events.ts; the webhooks' `voucher.*`, docs/webhooks.md). */
import type { DomainEvent, DomainEventType } from '../../platform/domain-events.js';
import type { VoucherRow } from './vouchers.repository.js';

/** The voucher after the change; a redemption adds what was taken off, where. */
export function voucherEvent(
  type: DomainEventType,
  voucher: VoucherRow,
  at: Date,
  redemption?: { amount_pence: number; venue_id: string },
): DomainEvent {
  return {
    type,
    operatorId: voucher.operator_id,
    venueId: redemption?.venue_id ?? voucher.venue_id,
    at: at.toISOString(),
    data: {
      object: 'voucher',
      id: voucher.id,
      code: voucher.code,
      venue_id: voucher.venue_id,
      mode: voucher.mode,
      status: voucher.status,
      amount_pence: voucher.amount_pence,
      remaining_pence: voucher.remaining_pence,
      recipient_name: voucher.recipient_name,
      recipient_email: voucher.recipient_email,
      expires_at: voucher.expires_at,
      created_at: voucher.created_at,
      ...(redemption ? { redemption: { amount_pence: redemption.amount_pence, venue_id: redemption.venue_id } } : {}),
    },
  };
}

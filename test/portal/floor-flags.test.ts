/** The floor's booking flags: a guest's confirmation through a reminder shows on the pill (docs/messages.md). */
import { describe, expect, it } from 'vitest';
import { flagsOf, type FlagFields } from '../../portal/src/floor/flags.js';

const booking = (fields: Partial<FlagFields>) =>
  ({
    deposit_type: 'none',
    deposit_pence: 0,
    captured_pence: 0,
    payment_status: 'none',
    table_locked: false,
    source: 'staff',
    kind: 'table',
    guest_confirmed_at: null,
    ...fields,
  }) satisfies FlagFields;
const state = { late: false, arrived: false, closed: false };

describe('floor flags', () => {
  it('marks a booking the guest confirmed, and only that one', () => {
    expect(flagsOf(booking({ guest_confirmed_at: '2026-06-18T18:05:00.000Z' }), state)).toContain('Confirmed by guest');
    expect(flagsOf(booking({}), state)).not.toContain('Confirmed by guest');
  });
});

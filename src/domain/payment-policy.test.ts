import { describe, expect, it } from 'vitest';
import {
  cancellationAllowed,
  cancellationDeadline,
  cancellationOutcome,
  depositRequirement,
  holdAmount,
  PAYMENT_POLICY_DEFAULTS,
  refundDue,
  type PaymentPolicyTerms,
} from './payment-policy.js';

const policy = (terms: Partial<PaymentPolicyTerms> = {}): PaymentPolicyTerms => ({ ...PAYMENT_POLICY_DEFAULTS, ...terms });
const at = (iso: string) => new Date(iso);
const MS = 1;

describe('deposit requirement', () => {
  it.each([
    ['none', false, null],
    ['deposit', true, 'deposit'],
    ['hold', true, 'hold'],
  ] as const)('%s → required %s, mode %s', (deposit_type, required, mode) => {
    expect(depositRequirement(policy({ deposit_type }))).toEqual({ required, mode });
  });

  it('defaults to no deposit, no refund, cancel anytime, 100 % and 24 hours', () => {
    expect(PAYMENT_POLICY_DEFAULTS).toEqual({
      deposit_type: 'none',
      refund_type: 'none',
      refund_percent: 100,
      cancel_type: 'anytime',
      cancel_cutoff_value: 24,
      cancel_cutoff_unit: 'hours',
    });
  });
});

describe('cancellation window', () => {
  const london = (date: string, time: string) => ({ date, time, timezone: 'Europe/London' });

  it.each([
    // [case, terms, booking, now, allowed, reason]
    ['anytime, long before', { cancel_type: 'anytime' }, london('2026-07-15', '19:00'), '2026-07-01T00:00:00Z', true, undefined],
    ['anytime, after the start', { cancel_type: 'anytime' }, london('2026-07-15', '19:00'), '2026-07-15T20:00:00Z', true, undefined],
    ['never, long before', { cancel_type: 'never' }, london('2026-07-15', '19:00'), '2026-07-01T00:00:00Z', false, 'never'],
    // BST: 19:00 local is 18:00Z; 24 h before is 2026-07-14T18:00Z.
    [
      'cutoff 24 h, exactly at the deadline',
      { cancel_type: 'cutoff' },
      london('2026-07-15', '19:00'),
      '2026-07-14T18:00:00.000Z',
      true,
      undefined,
    ],
    [
      'cutoff 24 h, 1 ms after the deadline',
      { cancel_type: 'cutoff' },
      london('2026-07-15', '19:00'),
      '2026-07-14T18:00:00.001Z',
      false,
      'past_cutoff',
    ],
    [
      'cutoff 24 h, 1 ms before the deadline',
      { cancel_type: 'cutoff' },
      london('2026-07-15', '19:00'),
      '2026-07-14T17:59:59.999Z',
      true,
      undefined,
    ],
    [
      'cutoff 30 minutes',
      { cancel_type: 'cutoff', cancel_cutoff_value: 30, cancel_cutoff_unit: 'minutes' },
      london('2026-07-15', '19:00'),
      '2026-07-15T17:30:00.000Z',
      true,
      undefined,
    ],
    [
      'cutoff 30 minutes, after',
      { cancel_type: 'cutoff', cancel_cutoff_value: 30, cancel_cutoff_unit: 'minutes' },
      london('2026-07-15', '19:00'),
      '2026-07-15T17:30:00.001Z',
      false,
      'past_cutoff',
    ],
    [
      'cutoff 0 = until the start',
      { cancel_type: 'cutoff', cancel_cutoff_value: 0 },
      london('2026-07-15', '19:00'),
      '2026-07-15T18:00:00.000Z',
      true,
      undefined,
    ],
    [
      'cutoff 1 week',
      { cancel_type: 'cutoff', cancel_cutoff_value: 1, cancel_cutoff_unit: 'weeks' },
      london('2026-07-15', '19:00'),
      '2026-07-08T18:00:00.001Z',
      false,
      'past_cutoff',
    ],
  ] as const)('%s', (_case, terms, booking, now, allowed, reason) => {
    const result = cancellationAllowed(policy(terms as Partial<PaymentPolicyTerms>), booking, at(now));
    expect(result.allowed).toBe(allowed);
    expect('reason' in result ? result.reason : undefined).toBe(reason);
  });

  // Spring forward in London: 2026-03-29 01:00 GMT → 02:00 BST. The booking at 19:00 BST is 18:00Z.
  it.each([
    ['24 hours across spring-forward is elapsed time', 24, 'hours', '2026-03-28T18:00:00.000Z'],
    ['1 day across spring-forward keeps the wall clock (19:00 GMT the day before)', 1, 'days', '2026-03-28T19:00:00.000Z'],
  ] as const)('deadline: %s', (_case, value, unit, deadline) => {
    const terms = policy({ cancel_type: 'cutoff', cancel_cutoff_value: value, cancel_cutoff_unit: unit });
    const booking = london('2026-03-29', '19:00');
    expect(cancellationDeadline(terms, booking)?.toISOString()).toBe(deadline);
    expect(cancellationAllowed(terms, booking, at(deadline)).allowed).toBe(true);
    expect(cancellationAllowed(terms, booking, new Date(at(deadline).getTime() + MS)).allowed).toBe(false);
  });

  // Fall back in London: 2026-10-25 02:00 BST → 01:00 GMT. 10:00 GMT on the 25th is 10:00Z.
  it.each([
    ['24 hours across fall-back', 24, 'hours', '2026-10-24T10:00:00.000Z'],
    ['1 day across fall-back (10:00 BST the day before)', 1, 'days', '2026-10-24T09:00:00.000Z'],
  ] as const)('deadline: %s', (_case, value, unit, deadline) => {
    const terms = policy({ cancel_type: 'cutoff', cancel_cutoff_value: value, cancel_cutoff_unit: unit });
    const booking = london('2026-10-25', '10:00');
    expect(cancellationDeadline(terms, booking)?.toISOString()).toBe(deadline);
    expect(cancellationAllowed(terms, booking, at(deadline)).allowed).toBe(true);
    expect(cancellationAllowed(terms, booking, new Date(at(deadline).getTime() + MS)).allowed).toBe(false);
  });

  // Each row: the deadline, allowed exactly at it, refused 1 ms after it.
  it.each([
    // The booking's own time in the spring-forward gap (01:30 does not exist on 29 March) moves forward to 02:30 BST = 01:30Z.
    [
      'booking in the spring-forward gap, 1 hour',
      { date: '2026-03-29', time: '01:30', timezone: 'Europe/London' },
      1,
      'hours',
      '2026-03-29T00:30:00.000Z',
    ],
    // A booking at 01:30 on 25 October (repeated hour) is the first 01:30, BST = 00:30Z.
    [
      'booking in the repeated autumn hour, 30 minutes',
      { date: '2026-10-25', time: '01:30', timezone: 'Europe/London' },
      30,
      'minutes',
      '2026-10-25T00:00:00.000Z',
    ],
    // 1 day before 26 October 01:30 GMT is 25 October 01:30, a repeated wall-clock time: the first one (BST), as localToUtc resolves it.
    [
      '1 day landing in the repeated autumn hour takes the first',
      { date: '2026-10-26', time: '01:30', timezone: 'Europe/London' },
      1,
      'days',
      '2026-10-25T00:30:00.000Z',
    ],
    // 1 day before 30 March 01:30 BST is 29 March 01:30, which does not exist: moved forward to 02:30 BST.
    [
      '1 day landing in the spring-forward gap moves forward',
      { date: '2026-03-30', time: '01:30', timezone: 'Europe/London' },
      1,
      'days',
      '2026-03-29T01:30:00.000Z',
    ],
    [
      '1 week across spring-forward keeps the wall clock',
      { date: '2026-04-02', time: '19:00', timezone: 'Europe/London' },
      1,
      'weeks',
      '2026-03-26T19:00:00.000Z',
    ],
    [
      '168 hours across spring-forward is elapsed time',
      { date: '2026-04-02', time: '19:00', timezone: 'Europe/London' },
      168,
      'hours',
      '2026-03-26T18:00:00.000Z',
    ],
    [
      '90 minutes back across the spring-forward instant',
      { date: '2026-03-29', time: '03:00', timezone: 'Europe/London' },
      90,
      'minutes',
      '2026-03-29T00:30:00.000Z',
    ],
    // Southern hemisphere: Sydney leaves daylight time on 5 April 2026 (03:00 AEDT → 02:00 AEST).
    [
      'Sydney, 1 day across the end of daylight time',
      { date: '2026-04-05', time: '19:00', timezone: 'Australia/Sydney' },
      1,
      'days',
      '2026-04-04T08:00:00.000Z',
    ],
    [
      'Sydney, 24 hours across the end of daylight time',
      { date: '2026-04-05', time: '19:00', timezone: 'Australia/Sydney' },
      24,
      'hours',
      '2026-04-04T09:00:00.000Z',
    ],
    // New York springs forward on 8 March 2026; the cutoff crosses it and midnight.
    [
      'New York, 2 days across spring-forward and midnight',
      { date: '2026-03-09', time: '00:30', timezone: 'America/New_York' },
      2,
      'days',
      '2026-03-07T05:30:00.000Z',
    ],
    [
      'UTC venue, 0 days is the start itself',
      { date: '2026-03-29', time: '01:30', timezone: 'UTC' },
      0,
      'days',
      '2026-03-29T01:30:00.000Z',
    ],
  ] as const)('deadline edge: %s', (_case, booking, value, unit, deadline) => {
    const terms = policy({ cancel_type: 'cutoff', cancel_cutoff_value: value, cancel_cutoff_unit: unit });
    expect(cancellationDeadline(terms, booking)?.toISOString()).toBe(deadline);
    expect(cancellationAllowed(terms, booking, at(deadline))).toEqual({ allowed: true, deadline: at(deadline) });
    expect(cancellationAllowed(terms, booking, new Date(at(deadline).getTime() + MS))).toEqual({
      allowed: false,
      reason: 'past_cutoff',
      deadline: at(deadline),
    });
  });

  it('refuses to decide with an invalid now, rather than letting a late cancellation through', () => {
    const terms = policy({ cancel_type: 'cutoff' });
    expect(() => cancellationAllowed(terms, london('2026-07-15', '19:00'), new Date('not a date'))).toThrow(RangeError);
  });

  it('reads the booking time in the venue zone, not UTC', () => {
    const terms = policy({ cancel_type: 'cutoff', cancel_cutoff_value: 2, cancel_cutoff_unit: 'hours' });
    const ny = { date: '2026-07-15', time: '19:00', timezone: 'America/New_York' }; // 23:00Z
    expect(cancellationDeadline(terms, ny)?.toISOString()).toBe('2026-07-15T21:00:00.000Z');
    expect(cancellationAllowed(terms, ny, at('2026-07-15T20:59:00Z')).allowed).toBe(true);
    expect(cancellationAllowed(terms, ny, at('2026-07-15T21:01:00Z')).allowed).toBe(false);
  });

  it('has no deadline for anytime and never', () => {
    expect(cancellationDeadline(policy({ cancel_type: 'anytime' }), london('2026-07-15', '19:00'))).toBeNull();
    expect(cancellationDeadline(policy({ cancel_type: 'never' }), london('2026-07-15', '19:00'))).toBeNull();
  });
});

describe('refund due', () => {
  it.each([
    ['none', 100, 5000, 0],
    ['full', 10, 5000, 5000],
    ['partial', 50, 5000, 2500],
    ['partial', 100, 5000, 5000],
    ['partial', 0, 5000, 0],
    ['partial', 33, 1001, 330], // 330.33 rounds down
    ['partial', 75, 0, 0],
    ['full', 100, -500, 0],
    ['full', 100, 999.9, 999],
    ['full', 100, Number.NaN, 0],
    ['partial', Number.NaN, 5000, 0],
    ['partial', 150, 5000, 5000],
  ] as const)('%s at %i %% of %i → %i', (refund_type, refund_percent, paid, due) => {
    expect(refundDue(policy({ refund_type, refund_percent }), paid)).toBe(due);
  });

  it('refunds nothing when the cancellation is refused, the policy amount when allowed', () => {
    const terms = policy({ cancel_type: 'cutoff', refund_type: 'partial', refund_percent: 50 });
    const booking = { date: '2026-07-15', time: '19:00', timezone: 'Europe/London' };
    expect(cancellationOutcome(terms, booking, at('2026-07-14T18:00:00Z'), 4000)).toMatchObject({ allowed: true, refund_pence: 2000 });
    expect(cancellationOutcome(terms, booking, at('2026-07-14T18:00:01Z'), 4000)).toMatchObject({
      allowed: false,
      refund_pence: 0,
      reason: 'past_cutoff',
    });
    expect(
      cancellationOutcome(policy({ cancel_type: 'never', refund_type: 'full' }), booking, at('2026-07-01T00:00:00Z'), 4000),
    ).toMatchObject({
      allowed: false,
      refund_pence: 0,
    });
  });
});

describe('hold amount', () => {
  it.each([
    ['party above min covers', 1000, 2, 4, 0, 4000],
    ['min covers above party', 1000, 6, 4, 0, 6000],
    ['no min covers', 1000, null, 3, 0, 3000],
    ['plus bundles', 1000, 2, 2, 1500, 3500],
    ['free table, bundles only', 0, 2, 2, 700, 700],
    ['floor of 50 pence', 0, null, 2, 0, 50],
    ['tiny price lifted to 50 pence', 10, null, 2, 0, 50],
  ] as const)('%s', (_case, pricePence, minCovers, partySize, bundlesPence, amount) => {
    expect(holdAmount({ pricePence, minCovers, partySize, bundlesPence })).toBe(amount);
  });
});

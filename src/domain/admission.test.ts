import { describe, expect, it } from 'vitest';
import { evaluateAdmission, ruleMatches, type AdmissionRule, type GuestStanding } from './admission.js';

const rule = (id: string, fields: Partial<AdmissionRule> = {}): AdmissionRule => ({
  id,
  cond_tags_enabled: false,
  cond_tags: [],
  cond_bookings_enabled: false,
  cond_bookings_min: null,
  cond_connections_enabled: false,
  cond_connections_min: null,
  act_discount_enabled: false,
  act_discount_pct: null,
  act_autoapprove_enabled: false,
  act_maxplus_enabled: false,
  act_maxplus: null,
  ...fields,
});

const guest = (fields: Partial<GuestStanding> = {}): GuestStanding => ({ tags: [], bookings: 0, connections: 0, ...fields });

describe('rule conditions', () => {
  it.each([
    ['no conditions match everyone', rule('r'), guest(), true],
    ['tag held', rule('r', { cond_tags_enabled: true, cond_tags: ['VIP', 'Press'] }), guest({ tags: ['press'] }), true],
    ['tag missing', rule('r', { cond_tags_enabled: true, cond_tags: ['VIP'] }), guest({ tags: ['Regular'] }), false],
    ['tags ignored while disabled', rule('r', { cond_tags_enabled: false, cond_tags: ['VIP'] }), guest(), true],
    ['bookings at the minimum', rule('r', { cond_bookings_enabled: true, cond_bookings_min: 3 }), guest({ bookings: 3 }), true],
    ['bookings below the minimum', rule('r', { cond_bookings_enabled: true, cond_bookings_min: 3 }), guest({ bookings: 2 }), false],
    ['bookings ignored while disabled', rule('r', { cond_bookings_enabled: false, cond_bookings_min: 3 }), guest(), true],
    [
      'connections at the minimum',
      rule('r', { cond_connections_enabled: true, cond_connections_min: 10 }),
      guest({ connections: 10 }),
      true,
    ],
    [
      'connections below the minimum',
      rule('r', { cond_connections_enabled: true, cond_connections_min: 10 }),
      guest({ connections: 9 }),
      false,
    ],
    [
      'all enabled conditions must hold',
      rule('r', { cond_tags_enabled: true, cond_tags: ['VIP'], cond_bookings_enabled: true, cond_bookings_min: 1 }),
      guest({ tags: ['VIP'], bookings: 0 }),
      false,
    ],
    ['an enabled empty tag list matches nobody', rule('r', { cond_tags_enabled: true, cond_tags: [] }), guest({ tags: ['VIP'] }), false],
    [
      'tags match ignoring surrounding spaces',
      rule('r', { cond_tags_enabled: true, cond_tags: [' VIP '] }),
      guest({ tags: ['vip  '] }),
      true,
    ],
    [
      'a blank guest tag does not meet a blank rule tag',
      rule('r', { cond_tags_enabled: true, cond_tags: [' '] }),
      guest({ tags: [''] }),
      false,
    ],
    [
      'an unknown (NaN) bookings count fails a minimum',
      rule('r', { cond_bookings_enabled: true, cond_bookings_min: 1 }),
      guest({ bookings: Number.NaN }),
      false,
    ],
    [
      'an unknown (NaN) connections count fails a minimum',
      rule('r', { cond_connections_enabled: true, cond_connections_min: 1 }),
      guest({ connections: Number.NaN }),
      false,
    ],
    [
      'a negative count counts as none, which meets a minimum of 0',
      rule('r', { cond_bookings_enabled: true, cond_bookings_min: 0 }),
      guest({ bookings: -3 }),
      true,
    ],
    ['a minimum of 0 is met by everyone', rule('r', { cond_connections_enabled: true, cond_connections_min: 0 }), guest(), true],
    [
      'a fractional count below the minimum fails',
      rule('r', { cond_bookings_enabled: true, cond_bookings_min: 3 }),
      guest({ bookings: 2.9 }),
      false,
    ],
  ] as const)('%s', (_case, r, g, expected) => {
    expect(ruleMatches(r, g)).toBe(expected);
  });
});

describe('evaluateAdmission', () => {
  const vip = rule('vip', {
    cond_tags_enabled: true,
    cond_tags: ['VIP'],
    act_discount_enabled: true,
    act_discount_pct: 50,
    act_autoapprove_enabled: true,
    act_maxplus_enabled: true,
    act_maxplus: 5,
  });
  const regular = rule('regular', { cond_bookings_enabled: true, cond_bookings_min: 5, act_discount_enabled: true, act_discount_pct: 20 });
  const connected = rule('connected', {
    cond_connections_enabled: true,
    cond_connections_min: 50,
    act_maxplus_enabled: true,
    act_maxplus: 8,
  });
  const strict = rule('strict', { act_maxplus_enabled: true, act_maxplus: 1 });
  const disabledActions = rule('off', { act_discount_pct: 90, act_maxplus: 9 });

  it.each([
    [
      'no rules: venue default, nothing else',
      [],
      guest(),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 3, matched_rule_ids: [] },
    ],
    [
      'one rule with every action',
      [vip],
      guest({ tags: ['vip'] }),
      { discount_pct: 50, auto_approve: true, max_plus_ones: 5, matched_rule_ids: ['vip'] },
    ],
    [
      'no match keeps the default',
      [vip, regular],
      guest({ bookings: 4 }),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 3, matched_rule_ids: [] },
    ],
    [
      'highest discount and plus-ones win across matches',
      [regular, vip, connected],
      guest({ tags: ['VIP'], bookings: 9, connections: 60 }),
      { discount_pct: 50, auto_approve: true, max_plus_ones: 8, matched_rule_ids: ['regular', 'vip', 'connected'] },
    ],
    [
      'a matching rule may lower plus-ones below the default',
      [strict],
      guest(),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 1, matched_rule_ids: ['strict'] },
    ],
    [
      'values of disabled actions are ignored',
      [disabledActions],
      guest(),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 3, matched_rule_ids: ['off'] },
    ],
    [
      'a discount above 100 is clamped, a non-numeric one ignored',
      [
        rule('big', { act_discount_enabled: true, act_discount_pct: 250 }),
        rule('nan', { act_discount_enabled: true, act_discount_pct: Number.NaN }),
      ],
      guest(),
      { discount_pct: 100, auto_approve: false, max_plus_ones: 3, matched_rule_ids: ['big', 'nan'] },
    ],
    [
      'a non-numeric discount alone leaves no discount',
      [rule('nan', { act_discount_enabled: true, act_discount_pct: Number.NaN })],
      guest(),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 3, matched_rule_ids: ['nan'] },
    ],
    [
      'plus-ones of 0 is an allowance of none; negative is clamped to 0; fractions round down',
      [rule('zero', { act_maxplus_enabled: true, act_maxplus: 0 }), rule('neg', { act_maxplus_enabled: true, act_maxplus: -2 })],
      guest(),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 0, matched_rule_ids: ['zero', 'neg'] },
    ],
    [
      'plus-ones fraction rounds down',
      [rule('frac', { act_maxplus_enabled: true, act_maxplus: 2.7 })],
      guest(),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 2, matched_rule_ids: ['frac'] },
    ],
    [
      'auto-approve from a rule without other actions',
      [rule('ok', { act_autoapprove_enabled: true })],
      guest(),
      { discount_pct: 0, auto_approve: true, max_plus_ones: 3, matched_rule_ids: ['ok'] },
    ],
    [
      'a non-matching rule’s actions never apply',
      [
        rule('vip-only', {
          cond_tags_enabled: true,
          cond_tags: ['VIP'],
          act_autoapprove_enabled: true,
          act_discount_enabled: true,
          act_discount_pct: 100,
        }),
      ],
      guest({ tags: ['Regular'], bookings: 100, connections: 100 }),
      { discount_pct: 0, auto_approve: false, max_plus_ones: 3, matched_rule_ids: [] },
    ],
  ] as const)('%s', (_case, rules, g, decision) => {
    expect(evaluateAdmission([...rules], g, { maxPlusOnes: 3 })).toEqual(decision);
  });
});

/**
 * Admission rules of a list profile's admission group, evaluated for one guest: which rules the guest
 * meets, and what they earn (guest-list discount, automatic approval, how many plus-ones). Pure: the
 * guest's standing (tags, bookings count, connections count) is passed in by the guest-list booking.
 */

export interface AdmissionRule {
  id: string;
  cond_tags_enabled: boolean;
  cond_tags: string[];
  cond_bookings_enabled: boolean;
  cond_bookings_min: number | null;
  cond_connections_enabled: boolean;
  cond_connections_min: number | null;
  act_discount_enabled: boolean;
  act_discount_pct: number | null;
  act_autoapprove_enabled: boolean;
  act_maxplus_enabled: boolean;
  act_maxplus: number | null;
}

export interface GuestStanding {
  tags: string[];
  /** The guest's past bookings at the venue. */
  bookings: number;
  /** The guest's connections in the network graph. */
  connections: number;
}

export interface AdmissionDecision {
  discount_pct: number;
  auto_approve: boolean;
  max_plus_ones: number;
  matched_rule_ids: string[];
}

const normaliseTag = (tag: string) => tag.trim().toLowerCase();

/** A count the caller could not establish (NaN, negative) counts as none: a minimum then fails closed. */
const countOf = (value: number) => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/**
 * Whether the guest meets every enabled condition of the rule. Tags match when the guest carries any
 * of the rule's tags (case-insensitively); counts when they reach the minimum. A rule without enabled
 * conditions applies to everyone.
 */
export function ruleMatches(rule: AdmissionRule, guest: GuestStanding): boolean {
  if (rule.cond_tags_enabled) {
    const held = new Set(guest.tags.map(normaliseTag).filter(Boolean));
    if (!rule.cond_tags.some((tag) => held.has(normaliseTag(tag)))) return false;
  }
  if (rule.cond_bookings_enabled && countOf(guest.bookings) < (rule.cond_bookings_min ?? 0)) return false;
  if (rule.cond_connections_enabled && countOf(guest.connections) < (rule.cond_connections_min ?? 0)) return false;
  return true;
}

/**
 * Every matching rule applies and the most generous action wins: the highest discount, approval if any
 * matching rule auto-approves, the highest plus-ones allowance. Without a matching plus-ones action the
 * venue's default allowance stands.
 */
export function evaluateAdmission(rules: AdmissionRule[], guest: GuestStanding, defaults: { maxPlusOnes: number }): AdmissionDecision {
  let discount = 0;
  let autoApprove = false;
  let maxPlus: number | null = null;
  const matched: string[] = [];
  for (const rule of rules) {
    if (!ruleMatches(rule, guest)) continue;
    matched.push(rule.id);
    // Values outside their ranges are clamped; a missing or non-numeric value means the action is not set.
    if (rule.act_discount_enabled && rule.act_discount_pct !== null && Number.isFinite(rule.act_discount_pct)) {
      discount = Math.max(discount, Math.min(100, Math.max(0, rule.act_discount_pct)));
    }
    if (rule.act_autoapprove_enabled) autoApprove = true;
    if (rule.act_maxplus_enabled && rule.act_maxplus !== null && Number.isFinite(rule.act_maxplus)) {
      maxPlus = Math.max(maxPlus ?? 0, Math.max(0, Math.floor(rule.act_maxplus)));
    }
  }
  return { discount_pct: discount, auto_approve: autoApprove, max_plus_ones: maxPlus ?? defaults.maxPlusOnes, matched_rule_ids: matched };
}

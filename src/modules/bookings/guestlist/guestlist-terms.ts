/**
 * A guest list's terms (decisions: Guest list): what a guest-list access rule offers at the door, from
 * the rule's own `*_enabled` values, else its list profile's, else the venue's defaults. Door pricing
 * becomes the bookable options (`free`, `paid`, `queue_skip`), each with its price per person; a price
 * becomes keys at PENCE_PER_KEY, after the admission discount and a promo code. Pure but for the one
 * read of the venue's list profiles.
 */
import type { TimeAmount } from '../../../domain/availability/index.js';
import type { Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { listProfiles, toProfile, type Profile } from '../../profiles/index.js';

export const OPTION_KINDS = ['free', 'paid', 'queue_skip'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

/** One key is worth £1: a price in pence costs ceil(pence / 100) keys. */
export const PENCE_PER_KEY = 100;

type DoorKey = 'venue_access' | 'free_guest_list' | 'paid_guest_list' | 'queue_skip_price' | 'surge_threshold' | 'surge_price';

export interface DoorPricing {
  /** The door price without the list, per person (informational). */
  venueAccessPence: number | null;
  /** The free list, and how many of the list's covers it takes (null: no limit); null: no free list. */
  free: { places: number | null } | null;
  paidPence: number | null;
  queueSkipPence: number | null;
  /** From `threshold` committed covers on, paid options cost at least `pricePence` a person. */
  surge: { threshold: number; pricePence: number } | null;
}

export interface ListTerms {
  rule: AccessRuleRecord;
  profile: Profile | undefined;
  pricing: DoorPricing;
  /** The list's own cover limit (rule, else profile); null: none. */
  maxCovers: number | null;
  partyMin: number;
  /** The list's party cap (rule, else profile); null: only the plus-ones allowance limits it. */
  partyMax: number | null;
  admissionGroupId: string | null;
  /** The list profile's booking window, applied when the rule has none of its own. */
  bookingWindow: { cutoff: TimeAmount | null; start: TimeAmount | null } | null;
}

export interface GuestlistOption {
  kind: OptionKind;
  /** Per person, after surge pricing (before the guest's discounts). */
  price_pence: number;
  /** Whether a promo code may be applied: only to a price. */
  promo_eligible: boolean;
  /** The free list's places (null: no limit; other options: null). */
  places: number | null;
  available: boolean;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const pence = (value: number | null): number | null => (value === null ? null : Math.max(0, Math.round(value)));

/** A toggled value of the rule, else of the profile; `undefined` when neither has the toggle on. */
function toggled(rule: AccessRuleRecord, profile: Profile | undefined, key: DoorKey): number | null | undefined {
  if (rule[`${key}_enabled`]) return rule[`${key}_value`];
  if (profile?.[`${key}_enabled`]) return num(profile[`${key}_value`]);
  return undefined;
}

/** The door pricing in force for a rule: its own toggled values, its list profile's, else the venue's defaults. */
export function doorPricing(rule: AccessRuleRecord, profile: Profile | undefined, venue: VenueRow): DoorPricing {
  const value = (key: DoorKey, fallback: number | null) => {
    const own = toggled(rule, profile, key);
    return own === undefined ? fallback : own;
  };
  const freeOwn = toggled(rule, profile, 'free_guest_list');
  const free =
    freeOwn !== undefined
      ? { places: freeOwn === null ? null : Math.max(0, Math.floor(freeOwn)) }
      : venue.guest_list_enabled
        ? { places: null }
        : null;
  const threshold = value('surge_threshold', venue.surge_threshold);
  const surgePence = pence(value('surge_price', venue.surge_price));
  const paidPence = pence(value('paid_guest_list', null));
  const queueSkipPence = pence(value('queue_skip_price', venue.queue_skip_price));
  return {
    venueAccessPence: pence(value('venue_access', null)),
    // A list priced nowhere (rule, profile or venue) is a free list, as the public booking engine books it.
    free: free ?? (paidPence === null && queueSkipPence === null ? { places: null } : null),
    paidPence,
    queueSkipPence,
    surge: threshold !== null && surgePence !== null ? { threshold: Math.max(0, Math.ceil(threshold)), pricePence: surgePence } : null,
  };
}

const windowAmount = (value: unknown, unit: unknown): TimeAmount | null =>
  num(value) !== null && typeof unit === 'string' ? ({ value: num(value)!, unit } as TimeAmount) : null;

export function listTerms(rule: AccessRuleRecord, profile: Profile | undefined, venue: VenueRow): ListTerms {
  const ownParty = rule.party_size_enabled;
  const profileParty = !ownParty && Boolean(profile?.party_size_enabled);
  const maxCovers = rule.max_covers_enabled ? rule.max_covers : profile?.max_covers_enabled ? num(profile.max_covers) : null;
  return {
    rule,
    profile,
    pricing: doorPricing(rule, profile, venue),
    maxCovers,
    partyMin: (ownParty ? rule.party_size_min : profileParty ? num(profile!.party_size_min) : null) ?? 1,
    partyMax: ownParty ? rule.party_size_max : profileParty ? num(profile!.party_size_max) : null,
    admissionGroupId: typeof profile?.admission_rule_group_id === 'string' ? profile.admission_rule_group_id : null,
    bookingWindow:
      !rule.booking_window_enabled && profile?.booking_window_enabled
        ? {
            cutoff: windowAmount(profile.booking_cutoff_value, profile.booking_cutoff_unit),
            start: windowAmount(profile.booking_start_value, profile.booking_start_unit),
          }
        : null,
  };
}

/** The venue's list profiles by id (one query). */
export async function listProfilesOf(conn: Conn, venueId: string): Promise<Map<string, Profile>> {
  const rows = await listProfiles(conn, venueId, 'list');
  return new Map(rows.map((row) => [row.id, toProfile(row)]));
}

/** The terms of one rule, reading its list profile when it names one. */
export async function termsOfRule(conn: Conn, venue: VenueRow, rule: AccessRuleRecord): Promise<ListTerms> {
  const profile = rule.list_profile_id ? (await listProfilesOf(conn, venue.id)).get(rule.list_profile_id) : undefined;
  return listTerms(rule, profile, venue);
}

export const surging = (pricing: DoorPricing, committedCovers: number) =>
  pricing.surge !== null && committedCovers >= pricing.surge.threshold;

/**
 * The options of a list with `committedCovers` already on it and room for `room` more covers (null: no
 * limit): free while its places last, paid and queue skip at their price, raised to the surge price once
 * the list reaches the surge threshold.
 */
export function optionsOf(pricing: DoorPricing, committedCovers: number, room: number | null): GuestlistOption[] {
  const open = room === null || room > 0;
  const surge = surging(pricing, committedCovers) ? pricing.surge!.pricePence : 0;
  const options: GuestlistOption[] = [];
  if (pricing.free) {
    const { places } = pricing.free;
    options.push({
      kind: 'free',
      price_pence: 0,
      promo_eligible: false,
      places,
      available: open && (places === null || committedCovers < places),
    });
  }
  const paid = (kind: OptionKind, price: number | null) => {
    if (price === null) return;
    const each = Math.max(price, surge);
    options.push({ kind, price_pence: each, promo_eligible: each > 0, places: null, available: open });
  };
  paid('paid', pricing.paidPence);
  paid('queue_skip', pricing.queueSkipPence);
  return options;
}

/** What a party pays for an option: the price for everyone, less the admission discount, then the promo's; in keys, rounded up. */
export function quote(pricePerPerson: number, partySize: number, discountPct: number, promoPct: number): { pence: number; keys: number } {
  const full = pricePerPerson * partySize;
  const pence = Math.round((full * (100 - discountPct) * (100 - promoPct)) / 10_000);
  return { pence, keys: Math.ceil(pence / PENCE_PER_KEY) };
}

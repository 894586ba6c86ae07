/**
 * The guest score (docs/guests.md): 0 to 100 from the guest's history at the caller's venues. Points for
 * visits (10 each, at most 40), spend (1 per £10 net paid, at most 30) and recency of the last visit (20
 * within 30 days, 12 within 90, 6 within 180, 2 within 365), less 10 per no-show, 5 per refusal at the door
 * and 3 per cancellation; clamped to 0..100. Loyalty points: 10 per visit and 1 per whole £10 net paid.
 */
import type { CrmFigures } from './sources.js';

export interface GuestScore {
  total: number;
  /** `new` (no visit yet), `at_risk` (score under 20 after a visit), `regular` (20 to 59) or `vip` (60 and over). */
  band: 'new' | 'at_risk' | 'regular' | 'vip';
  breakdown: {
    visits: number;
    spend: number;
    recency: number;
    no_shows: number;
    door_rejections: number;
    cancellations: number;
  };
  days_since_last_visit: number | null;
}

export const EMPTY_FIGURES: CrmFigures = {
  total_bookings: 0,
  visits: 0,
  no_shows: 0,
  cancellations: 0,
  door_rejections: 0,
  spend_pence: 0,
  last_visit_date: null,
};

const DAY_MS = 86_400_000;

function recencyPoints(days: number | null): number {
  if (days === null) return 0;
  if (days <= 30) return 20;
  if (days <= 90) return 12;
  if (days <= 180) return 6;
  if (days <= 365) return 2;
  return 0;
}

/** Whole days from the venue-local date of the last visit to `now`'s UTC date (never negative). */
function daysSince(date: string | null, now: Date): number | null {
  if (!date) return null;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.max(0, Math.round((today - Date.parse(`${date}T00:00:00Z`)) / DAY_MS));
}

export function guestScore(figures: CrmFigures, now: Date): GuestScore {
  const days = daysSince(figures.last_visit_date, now);
  const breakdown = {
    visits: Math.min(40, figures.visits * 10),
    spend: Math.min(30, Math.floor(Math.max(0, figures.spend_pence) / 1000)),
    recency: recencyPoints(days),
    no_shows: -10 * figures.no_shows,
    door_rejections: -5 * figures.door_rejections,
    cancellations: -3 * figures.cancellations,
  };
  const sum = Object.values(breakdown).reduce((a, b) => a + b, 0);
  const total = Math.max(0, Math.min(100, sum));
  const band = figures.visits === 0 ? 'new' : total >= 60 ? 'vip' : total >= 20 ? 'regular' : 'at_risk';
  return { total, band, breakdown, days_since_last_visit: days };
}

export const loyaltyPoints = (figures: CrmFigures): number => figures.visits * 10 + Math.floor(Math.max(0, figures.spend_pence) / 1000);

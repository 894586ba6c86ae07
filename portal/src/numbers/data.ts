/**
 * What the Numbers page reads: the venue's figures per date over the chosen range (`stats/daily`), its
 * headline figures (`stats`), the shifts and time periods (to put covers into shifts), and the vouchers
 * (what is still owed on them). Plus the pure helpers: dates of a range, which shift a start time falls
 * in, and CSV text.
 */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { paths } from '../api/schema';

type Json<T> = T extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;
export type Daily = Json<paths['/api/my-venues/{venueId}/stats/daily']['get']>;

const at = (venueId: string) => ({ params: { path: { venueId } } });

export function useDaily(venueId: string, from: string, to: string) {
  return useQuery({
    queryKey: ['numbers', venueId, 'daily', from, to],
    queryFn: () => call(api.GET('/api/my-venues/{venueId}/stats/daily', { params: { path: { venueId }, query: { from, to } } })),
  });
}

export function useVenueStats(venueId: string) {
  return useQuery({
    queryKey: ['numbers', venueId, 'stats'],
    queryFn: () => call(api.GET('/api/my-venues/{id}/stats', { params: { path: { id: venueId } } })),
  });
}

/** The shifts with the clock times they run at (a shift on a time period takes the period's times). */
export function useShiftTimes(venueId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['numbers', venueId, 'shifts'],
    enabled,
    queryFn: async () => {
      const [shifts, periods] = await Promise.all([
        call(api.GET('/api/my-venues/{venueId}/shifts', at(venueId))),
        call(api.GET('/api/my-venues/{venueId}/time-periods', at(venueId))),
      ]);
      const byId = new Map(periods.data.map((p) => [p.id, p]));
      return shifts.data.flatMap((shift) => {
        const period = shift.time_period_id ? byId.get(shift.time_period_id) : undefined;
        const from = shift.time_from ?? period?.time_from;
        const to = shift.time_to ?? period?.time_to;
        return from && to ? [{ name: shift.name, days: shift.days_of_week, from, to }] : [];
      });
    },
  });
}
export type ShiftTime = { name: string; days: string[]; from: string; to: string };

/** What is still owed on the vouchers of the venue and its sister venues: the balance of each active voucher, by venue. */
export function useVoucherLiability(venueId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['numbers', venueId, 'vouchers'],
    enabled,
    queryFn: async () => {
      const owed = new Map<string, { venue: string; vouchers: number; pence: number }>();
      for (let offset = 0; ; offset += 200) {
        const page = await call(
          api.GET('/api/my-venues/{venueId}/vouchers', { params: { path: { venueId }, query: { limit: 200, offset } } }),
        );
        for (const v of page.data) {
          if (v.status !== 'active' || v.remaining_pence <= 0) continue;
          const row = owed.get(v.venue_id) ?? { venue: v.venue_name, vouchers: 0, pence: 0 };
          row.vouchers += 1;
          row.pence += v.remaining_pence;
          owed.set(v.venue_id, row);
        }
        if (offset + 200 >= (page.total ?? 0) || page.data.length < 200) break;
      }
      return [...owed.values()].sort((a, b) => a.venue.localeCompare(b.venue));
    },
  });
}

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The weekday of a YYYY-MM-DD date as the shifts name it (`mon` … `sun`). */
export const weekdayOf = (date: string) => DAY_NAMES[new Date(`${date}T12:00:00Z`).getUTCDay()];

/** The shift a reservation starting at `time` on `date` belongs to (one running past midnight included), or null. */
export function shiftOf(shifts: ShiftTime[], date: string, time: string): string | null {
  const day = weekdayOf(date);
  const t = minutes(time);
  for (const shift of shifts) {
    if (shift.days.length > 0 && !shift.days.includes(day)) continue;
    const from = minutes(shift.from);
    const to = minutes(shift.to);
    if (from < to ? t >= from && t < to : t >= from || t < to) return shift.name;
  }
  return null;
}

/** YYYY-MM-DD plus `days`. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000) + 1;

/** "Mon 15 Jun" for a YYYY-MM-DD date. */
export function dayLabel(date: string, long = false): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(long ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  });
}

/** RFC 4180 text: a header row and the rows, quoted where needed, CRLF line ends. */
export function csvText(header: string[], rows: (string | number)[][]): string {
  const cell = (value: string | number) => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
export const money = (pence: number) => pounds.format(pence / 100);
/** Pence as pounds for a CSV cell: 2500 → 25.00. */
export const poundsCell = (pence: number) => (pence / 100).toFixed(2);

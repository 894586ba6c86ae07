/**
 * When a booking reminder goes out (docs/messages.md, Reminders). Pure.
 *
 * A reminder `offset` minutes before the start is due at `start − offset`. Quiet hours are a venue-local
 * window (e.g. 22:00–08:00, may span midnight) in which no reminder is sent: with `shift`, one due in them
 * goes out when they end, if that is still before the booking starts (otherwise it is skipped); with
 * `skip`, it is not sent.
 */
import { localToUtc, utcToLocal, addDays } from './venue-time.js';

export interface QuietHours {
  start: string;
  end: string;
  mode: 'shift' | 'skip';
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether the venue-local wall time of `instant` falls in the quiet window [start, end). */
export function inQuietHours(instant: Date, timezone: string, quiet: Pick<QuietHours, 'start' | 'end'>): boolean {
  const local = minutesOf(utcToLocal(instant, timezone).time);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  return start < end ? local >= start && local < end : local >= start || local < end;
}

/** The instant the quiet window containing `instant` ends (venue-local `end` on that day or the next). */
function quietEnd(instant: Date, timezone: string, end: string): Date {
  const local = utcToLocal(instant, timezone);
  const sameDay = localToUtc(local.date, end, timezone);
  return sameDay > instant ? sameDay : localToUtc(addDays(local.date, 1), end, timezone);
}

/** When the reminder is sent, or null when it is not (quiet hours, or shifted past the start). */
export function reminderSendTime(input: {
  startsAt: Date;
  offsetMinutes: number;
  timezone: string;
  quiet: QuietHours | null;
}): Date | null {
  const due = new Date(input.startsAt.getTime() - input.offsetMinutes * 60_000);
  if (!input.quiet || !inQuietHours(due, input.timezone, input.quiet)) return due;
  if (input.quiet.mode === 'skip') return null;
  const shifted = quietEnd(due, input.timezone, input.quiet.end);
  return shifted < input.startsAt ? shifted : null;
}

/**
 * A number fit to text: E.164 (`+` and 7–15 digits) after removing spaces, dots, dashes and brackets,
 * `00` read as `+`. Anything else (a local number without a country code) is null: it is not texted.
 */
export function textableNumber(phone: string | null | undefined): string | null {
  if (!phone) return null;
  let compact = phone.replace(/[\s.()-]/g, '');
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
  return /^\+[1-9]\d{6,14}$/.test(compact) ? compact : null;
}

/** A calendar file for a booking, in the venue's own zone (TZID), as the API gave the date and time. */
const escape = (text: string) => text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');

export function bookingIcs(input: {
  id: string;
  venueName: string;
  address?: string | null;
  timezone: string;
  date: string;
  time: string;
  minutes: number;
  summary: string;
}): string {
  const local = (date: string, time: string) => `${date.replace(/-/g, '')}T${time.replace(':', '')}00`;
  const [h, m] = input.time.split(':').map(Number);
  const endMinutes = h * 60 + m + input.minutes;
  const dayShift = Math.floor(endMinutes / 1440);
  const [y, mo, d] = input.date.split('-').map(Number);
  const endDate = new Date(Date.UTC(y, mo - 1, d + dayShift)).toISOString().slice(0, 10);
  const endTime = `${String(Math.floor((endMinutes % 1440) / 60)).padStart(2, '0')}:${String(endMinutes % 60).padStart(2, '0')}`;
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Maitred//Widget//EN',
    'BEGIN:VEVENT',
    `UID:${input.id}@maitred`,
    `DTSTAMP:${stamp}`,
    `DTSTART;TZID=${input.timezone}:${local(input.date, input.time)}`,
    `DTEND;TZID=${input.timezone}:${local(endDate, endTime)}`,
    `SUMMARY:${escape(input.summary)}`,
    `LOCATION:${escape([input.venueName, input.address].filter(Boolean).join(', '))}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

export function icsHref(ics: string): string {
  return `data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}`;
}

/** Shared set-up of the venues module's tests: bookings inserted directly, complete venues, requests. */
import { randomBytes } from 'node:crypto';
import { base32 } from '../../platform/ids.js';
import type { TestApp, TestOperator } from '../../../test/helpers/app.js';
import { insertVenue } from '../../../test/helpers/app.js';

/** A booking row, until the booking engine exists to make one. */
export async function insertBooking(
  t: TestApp,
  operatorId: string,
  venueId: string,
  fields: {
    status?: string;
    booking_date?: string;
    guest_count?: number;
    guest_email?: string | null;
    user_id?: string | null;
    kind?: string;
  } = {},
): Promise<string> {
  const id = `bkg_${base32(randomBytes(16))}`;
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('bookings')
    .values({
      id,
      operator_id: operatorId,
      venue_id: venueId,
      kind: fields.kind ?? 'table',
      status: fields.status ?? 'confirmed',
      booking_date: fields.booking_date ?? '2026-06-20',
      guest_count: fields.guest_count ?? 2,
      guest_email: fields.guest_email === undefined ? `guest-${id}@example.test` : fields.guest_email,
      user_id: fields.user_id ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** Every field going live needs, including the logo. */
export const COMPLETE_VENUE = {
  venue_type: 'bar',
  phone: '+44 20 7946 0000',
  email: 'hello@venue.test',
  backdoor_capacity: 120,
  last_entry_time: '01:30',
  logo_url: 'http://maitred.test/uploads/logo.png',
};

export const completeVenue = (t: TestApp, operatorId: string, fields: Record<string, unknown> = {}) =>
  insertVenue(t, operatorId, { ...COMPLETE_VENUE, ...fields });

export function api(t: TestApp) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who?: { headers: Record<string, string> } | null,
    payload?: unknown,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get: (url: string, who?: { headers: Record<string, string> } | null) => call('GET', url, who),
    post: (url: string, who: { headers: Record<string, string> } | null, payload?: unknown) => call('POST', url, who, payload),
    put: (url: string, who: { headers: Record<string, string> } | null, payload?: unknown) => call('PUT', url, who, payload),
    del: (url: string, who: { headers: Record<string, string> } | null) => call('DELETE', url, who),
  };
}

/** Reads one venue back through the list. */
export async function readVenue(t: TestApp, op: TestOperator, venueId: string) {
  const res = await t.app.inject({ url: '/api/my-venues', headers: op.headers });
  const venue = res.json().data.find((v: { id: string }) => v.id === venueId);
  if (!venue) throw new Error(`venue ${venueId} not in the list`);
  return venue;
}

/** Fixtures of the guest CRM tests: guest users, their bookings (joined to the roster as the engine does) and a CRM client. */
import type { TestApp } from '../../../test/helpers/app.js';
import { uniqueEmail } from '../../../test/helpers/app.js';
import { insertUser } from '../auth/index.js';
import { insertBooking, type BookingFixture } from '../bookings/core/bookings.test-support.js';
import { joinRoster } from './index.js';

/** A guest user (registered with a password unless `passwordless`). */
export async function guestUser(t: TestApp, name: string, fields: { email?: string; phone?: string | null } = {}): Promise<string> {
  return insertUser(
    t.db,
    { role: 'guest', name, email: fields.email ?? uniqueEmail('guest'), password: 'correct-horse-battery', phone: fields.phone ?? null },
    t.clock.now(),
  );
}

/**
 * A booking of `userId` at the venue, joined to the operator's roster (as the booking engine does). The
 * guest gives the operator the phone of their fixture record (`guestUser`'s `phone`) with it, which the
 * roster entry keeps (contact details belong to the operator they are given to).
 */
export async function bookingOf(
  t: TestApp,
  operatorId: string,
  venueId: string,
  userId: string,
  fixture: BookingFixture = {},
): Promise<string> {
  const id = await insertBooking(t, operatorId, venueId, { user_id: userId, ...fixture });
  const guest = await t.db.kysely.selectFrom('users').select('phone').where('id', '=', userId).executeTakeFirst();
  await joinRoster(t.db, { operatorId, venueId, userId, at: t.clock.now(), phone: guest?.phone ?? null });
  return id;
}

/** A booking at `date` and `time` (venue-local, London summer time in the fixtures: UTC+1). */
export const at = (date: string, time = '19:00'): BookingFixture => {
  const hour = Number(time.slice(0, 2)) - 1;
  const startsAt = `${date}T${String(hour).padStart(2, '0')}:${time.slice(3)}:00.000Z`;
  return { booking_date: date, start_time: time, starts_at: startsAt, ends_at: new Date(Date.parse(startsAt) + 7_200_000).toISOString() };
};

/** The CRM as one caller. */
export function crm(t: TestApp, headers: Record<string, string>) {
  return {
    get: (path: string) => t.app.inject({ method: 'GET', url: `/api/my-guests${path}`, headers }),
    put: (path: string, payload: object) => t.app.inject({ method: 'PUT', url: `/api/my-guests${path}`, headers, payload }),
    del: (path: string) => t.app.inject({ method: 'DELETE', url: `/api/my-guests${path}`, headers }),
  };
}

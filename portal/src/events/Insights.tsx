/**
 * What an event has sold (the stats: bookings by status, guests against capacity, revenue, tickets per
 * type) and its door list: every booking by guest name with its tickets, and Check in for staff who may
 * change bookings (`bookings` write). Outside the venue's check-in window the server says so (too early,
 * too late) and the door can check the guest in anyway, which the booking's history records.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { ErrorNote, failureOf, pounds, type Failure } from '../setup/availability/kit';
import { eventKey, useDoorList, useStats, type DoorRow } from './data';

export function Stats({ eventId }: { eventId: string }) {
  const stats = useStats(eventId);
  const s = stats.data;
  return (
    <section className="setup-section" aria-labelledby="event-stats">
      <h2 id="event-stats">Sales</h2>
      {stats.error && <ErrorNote failure={failureOf(stats.error)} />}
      {stats.isPending && <p className="muted">Loading…</p>}
      {s && (
        <>
          <dl className="event-figures">
            <div>
              <dt>Guests</dt>
              <dd>
                {s.committed_guests}
                {s.capacity != null && <span className="muted"> of {s.capacity}</span>}
              </dd>
            </div>
            <div>
              <dt>Confirmed</dt>
              <dd>{s.approved}</dd>
            </div>
            <div>
              <dt>Awaiting</dt>
              <dd>{s.pending}</dd>
            </div>
            <div>
              <dt>Checked in</dt>
              <dd>{s.checked_in}</dd>
            </div>
            <div>
              <dt>Cancelled</dt>
              <dd>{s.cancelled}</dd>
            </div>
            <div>
              <dt>Revenue</dt>
              <dd>{pounds(s.revenue)}</dd>
            </div>
          </dl>
          {s.tickets.length > 0 && (
            <ul className="event-sold">
              {s.tickets.map((t) => (
                <li key={t.ticket_type_id}>
                  {t.name}: {t.sold} sold{t.capacity != null ? ` of ${t.capacity}` : ''}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

const BOOKING_WORDS: Record<string, string> = {
  pending: 'Awaiting approval',
  pending_payment: 'Awaiting payment',
  approved: 'Approved',
  confirmed: 'Confirmed',
  checked_in: 'Checked in',
  cancelled: 'Cancelled',
  rejected: 'Rejected',
  no_show: 'No-show',
  door_rejected: 'Turned away',
};

export function DoorList({ eventId, canCheckIn, timezone }: { eventId: string; canCheckIn: boolean; timezone: string }) {
  const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: timezone });
  const door = useDoorList(eventId);
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<(Failure & { bookingId: string; window: boolean }) | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function checkIn(row: DoorRow, force: boolean) {
    setBusy(row.id);
    setFailure(null);
    setDone(null);
    try {
      await call(
        api.PATCH('/api/bookings/{id}/status', {
          params: { path: { id: row.id } },
          body: { status: 'checked_in', ...(force ? { force } : {}) },
        }),
      );
      setDone(`${row.guest_name ?? 'The guest'} is checked in.`);
      await client.invalidateQueries({ queryKey: eventKey(eventId) });
    } catch (caught) {
      const outsideWindow =
        caught instanceof ApiError && caught.status === 409 && /too (early|late)|window|from|until/i.test(caught.message);
      setFailure({ ...failureOf(caught), bookingId: row.id, window: outsideWindow && !force });
    } finally {
      setBusy(null);
    }
  }

  const rows = door.data ?? [];
  const failed = failure ? rows.find((r) => r.id === failure.bookingId) : undefined;
  return (
    <section className="setup-section" aria-labelledby="event-door">
      <h2 id="event-door">Door list</h2>
      {door.error && <ErrorNote failure={failureOf(door.error)} />}
      {door.isPending && <p className="muted">Loading…</p>}
      {door.data && rows.length === 0 && <p className="muted">No bookings yet.</p>}
      {!canCheckIn && rows.length > 0 && <p className="muted">Checking guests in needs permission to change bookings.</p>}
      {done && (
        <p className="notice notice--ok" role="status">
          {done}
        </p>
      )}
      {failure && (
        <div>
          <ErrorNote failure={failure} />
          {failure.window && failed && (
            <Button className="button" isDisabled={busy !== null} onPress={() => void checkIn(failed, true)}>
              Check {failed.guest_name ?? 'the guest'} in anyway
            </Button>
          )}
        </div>
      )}
      {rows.length > 0 && (
        <div className="event-table-wrap">
          <table className="event-table">
            <caption className="visually-hidden">Bookings of this event by guest name</caption>
            <thead>
              <tr>
                <th scope="col">Guest</th>
                <th scope="col">Tickets</th>
                <th scope="col">Paid</th>
                <th scope="col">Status</th>
                {canCheckIn && (
                  <th scope="col">
                    <span className="visually-hidden">Check in</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    {row.guest_name ?? 'Guest'}
                    {row.guest_email && <div className="muted">{row.guest_email}</div>}
                  </td>
                  <td>{row.ticket_name ? `${row.quantity} × ${row.ticket_name}` : `${row.guest_count} guests`}</td>
                  <td>{row.total_pence === 0 ? 'Free' : pounds(row.total_pence)}</td>
                  <td>
                    {BOOKING_WORDS[row.status] ?? row.status}
                    {row.checked_in_at && <div className="muted">at {clock.format(new Date(row.checked_in_at))}</div>}
                  </td>
                  {canCheckIn && (
                    <td>
                      {(row.status === 'confirmed' || row.status === 'approved') && (
                        <Button
                          className="button"
                          isDisabled={busy !== null}
                          aria-label={`Check in ${row.guest_name ?? 'guest'}`}
                          onPress={() => void checkIn(row, false)}
                        >
                          Check in
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

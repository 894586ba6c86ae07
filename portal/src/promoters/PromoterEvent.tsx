/**
 * One of the promoter's events (`/promoter?event=`, opened from PromoterHome.tsx): edit or withdraw it while
 * it awaits the venue (withdraw also once rejected); its stats, its sales and refunds with the promoter's
 * share, and its door list.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call, messageOf } from '../api/client';
import { LiveNotice } from '../shell/Notice';
import { money, promoterKey, useDoorList, useEventStats, type useMyEvents, useSales, words } from './data';

export type MyEvent = NonNullable<ReturnType<typeof useMyEvents>['data']>[number];

export function EventDetail({ event }: { event: MyEvent }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const stats = useEventStats(event.id);
  const door = useDoorList(event.id);
  const sales = useSales(event.id);
  const [name, setName] = useState(event.name);
  const [date, setDate] = useState(event.event_date);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const pending = event.status === 'pending_venue_approval';

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNote(null);
    try {
      await call(
        api.PUT('/api/promoter/events/{id}', { params: { path: { id: event.id } }, body: { name: name.trim(), event_date: date } }),
      );
      setNote('Saved.');
      await client.invalidateQueries({ queryKey: promoterKey });
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  async function withdraw() {
    setError(null);
    try {
      await call(api.DELETE('/api/promoter/events/{id}', { params: { path: { id: event.id } } }));
      await client.invalidateQueries({ queryKey: promoterKey });
      await navigate({ to: '/promoter', search: {} });
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <>
      <p>
        <Link to="/promoter" search={{}}>
          ← My events
        </Link>
      </p>
      <h1>{event.name}</h1>
      <p className="muted">
        {event.venue_name} · {event.event_date}
        {event.start_time ? ` from ${event.start_time}` : ''} ·{' '}
        <span className={`status status--${event.status}`}>{words(event.status)}</span>
      </p>
      <LiveNotice note={note} error={error} />
      {pending && (
        <section className="panel promoters__panel" aria-labelledby="edit-title">
          <h2 id="edit-title">Edit while the venue decides</h2>
          <form className="row-fields" onSubmit={(e) => void save(e)}>
            <div className="field">
              <label htmlFor="edit-name">Event name</label>
              <input id="edit-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="edit-date">Date</label>
              <input id="edit-date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
            </div>
            <div className="field field--button">
              <button type="submit" className="button button--primary">
                Save
              </button>
            </div>
          </form>
        </section>
      )}
      {(pending || event.status === 'rejected') && (
        <p>
          <button type="button" className="button" onClick={() => void withdraw()}>
            Withdraw this event
          </button>
        </p>
      )}
      <section className="panel promoters__panel" aria-labelledby="stats-title">
        <h2 id="stats-title">Sales</h2>
        {stats.data && (
          <dl className="promoters__figures">
            <div>
              <dt>Bookings</dt>
              <dd>{stats.data.active_bookings}</dd>
            </div>
            <div>
              <dt>Guests</dt>
              <dd>{stats.data.committed_guests}</dd>
            </div>
            <div>
              <dt>Ticket revenue</dt>
              <dd>{money(stats.data.revenue)}</dd>
            </div>
            {Boolean(sales.data?.total_refunded_pence) && (
              <div>
                <dt>Refunded</dt>
                <dd>{money(sales.data!.total_refunded_pence)}</dd>
              </div>
            )}
            <div>
              <dt>Your share</dt>
              <dd>{money(sales.data?.total_share_pence ?? 0)}</dd>
            </div>
          </dl>
        )}
        {sales.data && sales.data.data.length > 0 && (
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Sales with your share">
            <table className="promoters__table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Entry</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                  <th scope="col" className="num">
                    Share
                  </th>
                  <th scope="col" className="num">
                    Yours
                  </th>
                </tr>
              </thead>
              <tbody>
                {sales.data.data.map((row) => (
                  <tr key={row.id} className={row.kind === 'refund' ? 'promoters__refund' : undefined}>
                    <td>{row.created_at.slice(0, 16).replace('T', ' ')}</td>
                    <td>{row.kind === 'refund' ? 'Refund' : 'Sale'}</td>
                    <td className="num">{money(row.amount_pence)}</td>
                    <td className="num">{row.share_percent}%</td>
                    <td className="num">{money(row.share_pence)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {sales.data && sales.data.data.length === 0 && <p>No tickets sold yet.</p>}
      </section>
      <section className="panel promoters__panel" aria-labelledby="door-title">
        <h2 id="door-title">Door list</h2>
        {door.error && (
          <p className="error" role="alert">
            {messageOf(door.error)}
          </p>
        )}
        {door.data && door.data.length === 0 && <p>No bookings yet.</p>}
        {door.data && door.data.length > 0 && (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="door-title">
            <table className="promoters__table">
              <thead>
                <tr>
                  <th scope="col">Guest</th>
                  <th scope="col">Ticket</th>
                  <th scope="col" className="num">
                    Qty
                  </th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {door.data.map((row) => (
                  <tr key={row.id}>
                    <td>{row.guest_name ?? '—'}</td>
                    <td>{row.ticket_name ?? '—'}</td>
                    <td className="num">{row.quantity}</td>
                    <td>{row.checked_in_at ? 'Checked in' : row.status.replace(/_/g, ' ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

/** My tickets and my vouchers: what the guest shows at the door or the till, each with its QR. */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api';
import { dateLabel, money } from '../lib/format';
import { Alert } from '../ui/Shell';
import { STATUS_WORDS } from './Bookings';
import { meApi, type Session } from './session';

interface MyTicket {
  booking_id: string;
  status: string;
  venue: { name: string };
  event: { name: string; date: string; start_time: string | null };
  upcoming: boolean;
  tickets: { ticket_type: string; quantity: number }[];
  total_pence: number;
  qr_code: string | null;
}

interface MyVoucher {
  id: string;
  code: string;
  venue: { name: string };
  amount_pence: number;
  remaining_pence: number;
  status: string;
  qr_code: string;
}

function useList<T>(session: Session, path: string, what: string) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    setError(null);
    meApi<{ data: T[] }>(session, path)
      .then((answer) => setItems(answer.data))
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : `Your ${what} could not be loaded.`));
  };
  useEffect(load, []);
  return { items, error, load };
}

export function Tickets(props: { session: Session }) {
  const { items, error, load } = useList<MyTicket>(props.session, '/api/me/tickets', 'tickets');
  if (!items)
    return error ? <Alert message={error} action={{ label: 'Try again', run: load }} /> : <p class="mw-hint">Loading your tickets…</p>;
  if (items.length === 0) return <p>You have no tickets yet.</p>;
  return (
    <ul class="mw-list">
      {items.map((t) => (
        <li class="mw-card" key={t.booking_id} aria-labelledby={`mw-ticket-${t.booking_id}`}>
          <h3 id={`mw-ticket-${t.booking_id}`}>{t.event.name}</h3>
          <p class="mw-summary">
            {t.venue.name}, {dateLabel(t.event.date)}
            {t.event.start_time ? ` from ${t.event.start_time}` : ''}
          </p>
          <p>
            {t.tickets.map((line) => `${line.quantity} × ${line.ticket_type}`).join(', ')}
            {t.total_pence > 0 ? `, ${money(t.total_pence)}` : ''}. Status: <strong>{STATUS_WORDS[t.status] ?? t.status}</strong>
          </p>
          {t.upcoming && t.qr_code ? (
            <img class="mw-qr" src={t.qr_code} width={200} height={200} alt={`Entry QR code for ${t.event.name}: show it at the door`} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function Vouchers(props: { session: Session }) {
  const { items, error, load } = useList<MyVoucher>(props.session, '/api/me/vouchers', 'vouchers');
  if (!items)
    return error ? <Alert message={error} action={{ label: 'Try again', run: load }} /> : <p class="mw-hint">Loading your vouchers…</p>;
  if (items.length === 0) return <p>You have no gift vouchers.</p>;
  return (
    <ul class="mw-list">
      {items.map((v) => (
        <li class="mw-card" key={v.id} aria-labelledby={`mw-voucher-${v.id}`}>
          <h3 id={`mw-voucher-${v.id}`}>{v.venue.name} gift voucher</h3>
          <p class="mw-summary">
            {money(v.remaining_pence)} left of {money(v.amount_pence)}
          </p>
          <p>
            Code <strong class="mw-reference">{v.code}</strong> ({v.status})
          </p>
          {v.status === 'active' ? (
            <img class="mw-qr" src={v.qr_code} width={200} height={200} alt={`QR code of voucher ${v.code}`} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

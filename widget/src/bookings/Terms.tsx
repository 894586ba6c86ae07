/**
 * The booking's money terms before the guest types anything: what the deposit or card hold comes to
 * and covers, and what cancelling refunds until when, in the API's words (GET …/booking-terms); the
 * extras chosen are added line by line. A booking that could not be cancelled once made says so first.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api';
import { money } from '../lib/format';

export interface BookingTerms {
  deposit_type: 'none' | 'deposit' | 'hold';
  amount_pence: number;
  deposit: string | null;
  cancellation: string;
  cancellable: boolean;
}

export function Terms(props: {
  venueId: string;
  ruleId: string;
  date: string;
  time: string;
  partySize: number;
  tableId: string | null;
  extras: { label: string; amount_pence: number }[];
}) {
  const [terms, setTerms] = useState<BookingTerms | null>(null);
  useEffect(() => {
    const query = new URLSearchParams({ rule_id: props.ruleId, date: props.date, time: props.time, party_size: String(props.partySize) });
    if (props.tableId) query.set('table_id', props.tableId);
    api<BookingTerms>(`/api/public/venues/${encodeURIComponent(props.venueId)}/booking-terms?${query}`)
      .then(setTerms)
      .catch(() => setTerms(null));
  }, [props.venueId, props.ruleId, props.date, props.time, props.partySize, props.tableId]);
  if (!terms) return null;
  const what = terms.deposit_type === 'hold' ? 'Card hold' : 'Deposit';
  const total = terms.amount_pence + props.extras.reduce((sum, line) => sum + line.amount_pence, 0);
  return (
    <section class="mw-terms" aria-labelledby="mw-terms-title">
      <h2 id="mw-terms-title">{terms.deposit_type === 'none' ? 'Cancellation' : `${what} and cancellation`}</h2>
      {!terms.cancellable ? (
        <p class="mw-terms-warning">
          <span aria-hidden="true">⚠ </span>
          <strong>This booking cannot be cancelled once made.</strong>
        </p>
      ) : null}
      {terms.deposit ? <p>{terms.deposit}</p> : null}
      {terms.deposit_type !== 'none' ? (
        <Lines lines={[{ label: `${what} for the table`, amount_pence: terms.amount_pence }, ...props.extras]} total={total} />
      ) : null}
      <p>{terms.cancellation}</p>
    </section>
  );
}

/** Line items with their total, as a definition list the screen reader reads pairwise. */
export function Lines(props: { lines: { label: string; amount_pence: number }[]; total: number; totalLabel?: string }) {
  return (
    <dl class="mw-lines">
      {props.lines.map((line) => (
        <div key={line.label}>
          <dt>{line.label}</dt>
          <dd>{money(line.amount_pence)}</dd>
        </div>
      ))}
      <div class="mw-lines-total">
        <dt>{props.totalLabel ?? 'Total to pay now'}</dt>
        <dd>{money(props.total)}</dd>
      </div>
    </dl>
  );
}

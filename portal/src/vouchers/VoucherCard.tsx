/**
 * One looked-up voucher: what it is worth and what is left, whether it can be spent (and why not), its
 * history, and — for a role with vouchers write — taking part or all of the balance, and refunding what
 * is left of a paid voucher to the card that paid for it.
 */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { grouped, messageOf, money, penceOf, poundsText, REASONS, STATUS_WORDS, type Lookup } from './data';

type Found = NonNullable<Lookup['voucher']>;

export function VoucherCard(props: { venueId: string; lookup: Lookup; canWrite: boolean; onChanged: (note: string) => void }) {
  const { lookup } = props;
  const voucher = lookup.voucher;
  if (!lookup.found || !voucher) {
    return (
      <p className="error" role="alert">
        {REASONS[lookup.reason] ?? lookup.reason}.
      </p>
    );
  }
  return (
    <section className="voucher-card" aria-labelledby="voucher-card-title">
      <h3 id="voucher-card-title">
        Voucher <span className="code">{voucher.display_code}</span>
      </h3>
      <dl className="facts">
        <div>
          <dt>Balance</dt>
          <dd>
            <strong className="balance">{money(voucher.remaining_pence)}</strong> left of {money(voucher.amount_pence)}
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{STATUS_WORDS[voucher.status] ?? voucher.status}</dd>
        </div>
        <div>
          <dt>Can be spent</dt>
          <dd>{lookup.redeemable ? 'Yes' : `No: ${(REASONS[lookup.reason] ?? lookup.reason).toLowerCase()}`}</dd>
        </div>
        <div>
          <dt>Last day</dt>
          <dd>{voucher.expires_at}</dd>
        </div>
        <div>
          <dt>Issued by</dt>
          <dd>
            {voucher.venue_name} ({voucher.mode === 'paid' ? 'paid' : 'complimentary'}) on {voucher.created_at.slice(0, 10)}
          </dd>
        </div>
        {voucher.recipient_name && (
          <div>
            <dt>For</dt>
            <dd>
              {voucher.recipient_name}
              {voucher.recipient_email ? ` (${voucher.recipient_email})` : ''}
            </dd>
          </div>
        )}
        {voucher.refunded_pence > 0 && (
          <div>
            <dt>Refunded</dt>
            <dd>{money(voucher.refunded_pence)}</dd>
          </div>
        )}
      </dl>
      {voucher.redemptions.length > 0 && (
        <>
          <h4>Spent so far</h4>
          <ul className="history">
            {voucher.redemptions.map((r) => (
              <li key={r.redeemed_at + r.amount_pence}>
                {money(r.amount_pence)} on {r.redeemed_at.slice(0, 10)}
                {r.redeemed_by?.name ? ` by ${r.redeemed_by.name}` : ''}
                {r.note ? ` — ${r.note}` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
      {props.canWrite && lookup.redeemable && <RedeemForm key={voucher.remaining_pence} {...props} voucher={voucher} />}
      {props.canWrite && voucher.mode === 'paid' && voucher.status !== 'refunded' && voucher.remaining_pence > 0 && (
        <Refund {...props} voucher={voucher} />
      )}
      {!props.canWrite && <p className="muted">Your role may look vouchers up but not redeem or refund them.</p>}
    </section>
  );
}

function RedeemForm(props: { venueId: string; voucher: Found; onChanged: (note: string) => void }) {
  const { voucher } = props;
  const [amount, setAmount] = useState(poundsText(voucher.remaining_pence));
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const pence = penceOf(amount);
    if (pence === null || pence < 1) return setFailure('Enter the amount to take in pounds, e.g. 12.50.');
    if (pence > voucher.remaining_pence) return setFailure(`Only ${money(voucher.remaining_pence)} is left on this voucher.`);
    setBusy(true);
    setFailure(null);
    try {
      const result = await call(
        api.POST('/api/my-venues/{venueId}/vouchers/redeem', {
          params: { path: { venueId: props.venueId } },
          body: { code: voucher.code, amount_pence: pence, note: note.trim() || null },
        }),
      );
      if (!result.success || !result.voucher) setFailure(`${REASONS[result.reason] ?? result.reason}.`);
      else {
        setNote('');
        props.onChanged(
          `Took ${money(result.voucher.redeemed_pence)} from ${grouped(result.voucher.code)}: ${money(result.voucher.remaining_pence)} left.`,
        );
      }
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="subform" aria-labelledby="redeem-title" onSubmit={(e) => void submit(e)} noValidate>
      <h4 id="redeem-title">Redeem</h4>
      <div className="row-fields">
        <div className="field">
          <label htmlFor="redeem-amount">Amount to take (£)</label>
          <input
            id="redeem-amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-describedby="redeem-amount-hint"
          />
          <small id="redeem-amount-hint" className="muted">
            Up to {money(voucher.remaining_pence)}; the rest stays on the voucher.
          </small>
        </div>
        <div className="field field--grow">
          <label htmlFor="redeem-note">Note (optional)</label>
          <input id="redeem-note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
        </div>
      </div>
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? 'Redeeming…' : 'Redeem'}
      </button>
    </form>
  );
}

function Refund(props: { venueId: string; voucher: Found; onChanged: (note: string) => void }) {
  const { voucher } = props;
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function refund() {
    setBusy(true);
    setFailure(null);
    try {
      const result = await call(
        api.POST('/api/my-venues/{venueId}/vouchers/{id}/refund', { params: { path: { venueId: props.venueId, id: voucher.id } } }),
      );
      setAsking(false);
      props.onChanged(`Refunded ${money(result.refunded_pence)} of ${voucher.display_code} to the card that paid for it.`);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="subform">
      <h4>Refund</h4>
      {!asking ? (
        <button type="button" className="button button--danger" onClick={() => setAsking(true)}>
          Refund {money(voucher.remaining_pence)}…
        </button>
      ) : (
        <div role="group" aria-labelledby="refund-question">
          <p id="refund-question">
            Give {money(voucher.remaining_pence)} back to the card that paid? The voucher can no longer be spent. This cannot be undone.
          </p>
          <div className="actions">
            <button type="button" className="button button--danger" disabled={busy} onClick={() => void refund()} autoFocus>
              {busy ? 'Refunding…' : `Confirm refund of ${money(voucher.remaining_pence)}`}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => setAsking(false)}>
              Keep the voucher
            </button>
          </div>
        </div>
      )}
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}

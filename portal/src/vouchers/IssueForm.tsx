/**
 * Issuing a voucher: complimentary (given away), or paid by card. A paid one first makes a payment
 * intent for the amount (`voucher-intent`), takes the card, then issues the voucher against that paid
 * intent. The portal does not load a card provider's script (its content policy allows its own scripts
 * only), so it takes cards only with the simulated test provider; with a live provider a paid voucher is
 * sold through the vouchers widget.
 */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { LiveNotice } from '../shell/Notice';
import { messageOf, money, penceOf } from './data';

const SIMULATED_KEY = 'pk_test_simulated';
const TEST_CARDS = [
  { id: 'pm_card_visa', label: 'Test Visa card ending 4242 (succeeds)' },
  { id: 'pm_card_chargeDeclined', label: 'Test card ending 0002 (declined)' },
];

interface Issued {
  code: string;
  display_code: string;
  expires_at: string;
  emailed: boolean;
  amount: number;
}
interface Intent {
  intent_id: string;
  publishable_key: string | null;
  amount_pence: number;
}

export function IssueForm(props: { venueId: string; onIssued: (code: string) => void }) {
  const [amount, setAmount] = useState('');
  const [mode, setMode] = useState<'comp' | 'paid'>('comp');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [intent, setIntent] = useState<Intent | null>(null);
  const [card, setCard] = useState(TEST_CARDS[0].id);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [issued, setIssued] = useState<Issued | null>(null);
  const venue = { params: { path: { venueId: props.venueId } } };

  const issue = async (pence: number, paymentIntentId?: string) => {
    const result = await call(
      api.POST('/api/my-venues/{venueId}/vouchers', {
        ...venue,
        body: {
          amount_pence: pence,
          mode: paymentIntentId ? 'paid' : 'comp',
          payment_intent_id: paymentIntentId ?? null,
          recipient_name: name.trim() || null,
          recipient_email: email.trim() || null,
          message: message.trim() || null,
        },
      }),
    );
    setIssued({ ...result, amount: pence });
    setIntent(null);
    setAmount('');
    setName('');
    setEmail('');
    setMessage('');
    props.onIssued(result.code);
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const pence = penceOf(amount);
    if (pence === null || pence < 50) return setFailure('Enter an amount of at least £0.50, in pounds (e.g. 25 or 25.50).');
    setIssued(null);
    void run(async () => {
      if (mode === 'comp') return issue(pence);
      setIntent(await call(api.POST('/api/my-venues/{venueId}/voucher-intent', { ...venue, body: { amount_pence: pence } })));
    });
  }

  function pay(event: FormEvent) {
    event.preventDefault();
    if (!intent) return;
    void run(async () => {
      const paid = await call(
        api.POST('/api/public/simulated-payments/{intentId}/confirm', {
          params: { path: { intentId: intent.intent_id } },
          body: { payment_method: card },
        }),
      );
      if (paid.status !== 'succeeded') throw new Error('The card was declined: try another card.');
      await issue(intent.amount_pence, intent.intent_id);
    });
  }

  return (
    <section className="panel money__panel" aria-labelledby="issue-title">
      <h2 id="issue-title">Issue a voucher</h2>
      {!intent ? (
        <form onSubmit={submit} noValidate>
          <fieldset className="choice-row">
            <legend>Kind</legend>
            <label>
              <input type="radio" name="voucher-mode" checked={mode === 'comp'} onChange={() => setMode('comp')} /> Complimentary (no
              payment)
            </label>
            <label>
              <input type="radio" name="voucher-mode" checked={mode === 'paid'} onChange={() => setMode('paid')} /> Paid by card
            </label>
          </fieldset>
          <div className="row-fields">
            <div className="field">
              <label htmlFor="issue-amount">Amount (£)</label>
              <input id="issue-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="issue-name">Recipient’s name (optional)</label>
              <input id="issue-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="issue-email">Recipient’s email (optional)</label>
              <input
                id="issue-email"
                type="email"
                value={email}
                maxLength={254}
                aria-describedby="issue-email-hint"
                onChange={(e) => setEmail(e.target.value)}
              />
              <small id="issue-email-hint" className="muted">
                The voucher is mailed there from the venue.
              </small>
            </div>
          </div>
          <div className="field">
            <label htmlFor="issue-message">Message (optional)</label>
            <textarea id="issue-message" rows={2} value={message} maxLength={1000} onChange={(e) => setMessage(e.target.value)} />
          </div>
          {failure && (
            <p className="error" role="alert">
              {failure}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Working…' : mode === 'comp' ? 'Issue voucher' : 'Continue to payment'}
          </button>
        </form>
      ) : intent.publishable_key === SIMULATED_KEY ? (
        <form onSubmit={pay} noValidate>
          <fieldset>
            <legend>Take {money(intent.amount_pence)} by card (test mode)</legend>
            {TEST_CARDS.map((option) => (
              <label key={option.id} className="choice">
                <input type="radio" name="voucher-card" checked={card === option.id} onChange={() => setCard(option.id)} /> {option.label}
              </label>
            ))}
          </fieldset>
          {failure && (
            <p className="error" role="alert">
              {failure}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Paying…' : `Take ${money(intent.amount_pence)} and issue`}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => setIntent(null)}>
              Back
            </button>
          </div>
        </form>
      ) : (
        <div>
          <p className="error" role="alert">
            Card payments cannot be taken in the portal with the live payment provider. Sell a paid voucher through the vouchers widget, or
            issue a complimentary one here.
          </p>
          <button type="button" className="button" onClick={() => setIntent(null)}>
            Back
          </button>
        </div>
      )}
      <LiveNotice
        note={
          issued && (
            <>
              Issued <span className="code">{issued.display_code}</span> for {money(issued.amount)}, to be spent by {issued.expires_at}
              {issued.emailed ? '; it was emailed to the recipient' : ''}.
            </>
          )
        }
      />
    </section>
  );
}

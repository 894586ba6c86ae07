/**
 * Keys: the balance, the ledger, and a top-up paid on the payment provider's checkout page (the app is
 * sent there and back; the provider's webhook adds the keys). `?need=N` in the address (the guest-list
 * widget's "top up keys" link) preselects at least N keys.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api';
import { money } from '../lib/format';
import { Alert } from '../ui/Shell';
import { meApi, type Session } from './session';

interface Ledger {
  balance: number;
  pence_per_key: number;
  data: { id: string; type: string; delta: number; note: string | null; created_at: string }[];
}

const PACKS = [5, 10, 20, 50];
const TYPE_WORDS: Record<string, string> = { grant: 'Granted', topup: 'Top-up', spend: 'Spent', refund: 'Refunded' };

export function Keys(props: { session: Session }) {
  const params = new URLSearchParams(location.search);
  const need = Math.max(0, Math.min(500, Number(params.get('need')) || 0));
  const [ledger, setLedger] = useState<Ledger | null>(null);
  const [keys, setKeys] = useState(need > 0 ? (PACKS.find((p) => p >= need) ?? need) : 10);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = () => {
    setError(null);
    meApi<Ledger>(props.session, '/api/me/keys/ledger')
      .then(setLedger)
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Your keys could not be loaded.'));
  };
  useEffect(load, []);

  async function topUp(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await meApi<{ checkout_url: string }>(props.session, '/api/me/keys/top-up', { method: 'POST', body: { keys } });
      location.assign(answer.checkout_url);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The top-up could not be started. Please try again.');
      setBusy(false);
    }
  }

  if (!ledger)
    return error ? <Alert message={error} action={{ label: 'Try again', run: load }} /> : <p class="mw-hint">Loading your keys…</p>;
  const packs = PACKS.includes(keys) ? PACKS : [...PACKS, keys].sort((a, b) => a - b);
  return (
    <>
      <p class="mw-summary">
        You have <strong>{ledger.balance}</strong> keys.
      </p>
      {params.get('topup') === 'done' ? (
        <p>Thank you: your payment went through. New keys show here as soon as the payment is confirmed.</p>
      ) : null}
      {params.get('topup') === 'cancelled' ? <p>The top-up was not paid: nothing was charged.</p> : null}
      <form class="mw-step" onSubmit={(event) => void topUp(event)}>
        <fieldset>
          <legend>Top up keys ({money(ledger.pence_per_key)} a key)</legend>
          {need > 0 ? <p class="mw-hint">You need {need} more keys for the guest list.</p> : null}
          {packs.map((pack) => (
            <label class="mw-choice" key={pack}>
              <input type="radio" name="mw-keys-pack" checked={keys === pack} onChange={() => setKeys(pack)} />
              <span>
                {pack} keys for {money(pack * ledger.pence_per_key)}
              </span>
            </label>
          ))}
        </fieldset>
        <Alert message={error} />
        <button type="submit" class="mw-primary" disabled={busy}>
          {busy ? 'Opening the payment page…' : `Pay ${money(keys * ledger.pence_per_key)}`}
        </button>
      </form>
      <h2 class="mw-section">History</h2>
      {ledger.data.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <table class="mw-ledger">
          <caption class="mw-sr">Your keys history, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">What</th>
              <th scope="col">Keys</th>
            </tr>
          </thead>
          <tbody>
            {ledger.data.map((entry) => (
              <tr key={entry.id}>
                <td>{new Date(entry.created_at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}</td>
                <td>{TYPE_WORDS[entry.type] ?? entry.type}</td>
                <td>{entry.delta > 0 ? `+${entry.delta}` : entry.delta}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

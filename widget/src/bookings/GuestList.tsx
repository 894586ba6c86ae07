/**
 * Joining a guest list from the bookings widget: date, list and option (free, paid, queue skip) with
 * their price in keys, party size with plus-ones, a promo code where the option takes one; then the
 * guest signs in or registers here (registration in two steps: the 6-digit code mailed to the address
 * creates the account; the session lives only in this page's memory for the visit: no cookie, no
 * storage), sees their keys balance, and joins. Keys are spent by the server, atomically. A guest
 * without a password signs in with a 6-digit code mailed to the address (the account's code sign-in).
 * When their keys are short, a "top up keys" link opens the account app's top-up in a new tab
 * (docs/account.md); back here, "I've topped up" reads the balance again.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, idempotencyKey } from '../lib/api';
import { announceBooked, askScrollTop } from '../lib/embed';
import { addDays, dateLabel } from '../lib/format';
import { DatePicker } from '../ui/DatePicker';
import { Field } from '../ui/Field';
import { BookingQr } from '../ui/Qr';
import { Alert, LiveStatus } from '../ui/Shell';
import { GuestListSignIn } from './GuestListSignIn';
import type { BookingConfig } from './types';

interface ListOption {
  kind: 'free' | 'paid' | 'queue_skip';
  price_pence: number;
  promo_eligible: boolean;
  available: boolean;
}
interface ListRule {
  id: string;
  name: string;
  display_title: string | null;
  display_description: string | null;
  available: boolean;
  reason: string | null;
  arrival_time: string | null;
  party_size_min: number;
  party_size_max: number;
  remaining_capacity: number | null;
  options: ListOption[];
}
interface Options {
  date: string;
  pence_per_key: number;
  rules: ListRule[];
}
interface Joined {
  booking_id: string;
  status: string;
  keys_spent: number;
  auto_approved: boolean;
}

const OPTION_NAMES: Record<ListOption['kind'], string> = { free: 'Free entry', paid: 'Paid entry', queue_skip: 'Queue skip' };
const REASONS: Record<string, string> = {
  closed: 'not on this date',
  blackout: 'closed this date',
  cutoff: 'closed for joining now',
  horizon: 'not open for this date yet',
  full: 'full',
};

export function GuestList(props: { config: BookingConfig; venueId: string; today: string }) {
  const base = `/api/public/venues/${encodeURIComponent(props.venueId)}`;
  const [date, setDate] = useState(props.today);
  const [options, setOptions] = useState<Options | null>(null);
  const [choice, setChoice] = useState<{ ruleId: string; kind: ListOption['kind'] } | null>(null);
  const [party, setParty] = useState(1);
  const [promo, setPromo] = useState('');
  const [session, setSession] = useState<{ token: string; name: string; balance: number } | null>(null);
  const [attemptKey, setAttemptKey] = useState(idempotencyKey);
  const [joined, setJoined] = useState<Joined | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const load = (day: string) => {
    setError(null);
    setOptions(null);
    api<Options>(`${base}/guestlist-options?date=${encodeURIComponent(day)}`)
      .then((answer) => {
        setOptions(answer);
        const open = answer.rules.filter((rule) => rule.available && rule.options.some((o) => o.available));
        setStatus(
          open.length > 0
            ? `${open.length} guest ${open.length === 1 ? 'list' : 'lists'} open on ${dateLabel(day)}.`
            : `No guest list is open on ${dateLabel(day)}.`,
        );
        const first = open[0];
        const option = first?.options.find((o) => o.available);
        setChoice(first && option ? { ruleId: first.id, kind: option.kind } : null);
        setParty(1);
      })
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'The guest lists could not be loaded.'));
  };
  useEffect(() => load(date), []);

  const rule = options?.rules.find((r) => r.id === choice?.ruleId);
  const option = rule?.options.find((o) => o.kind === choice?.kind);
  const keysFor = (pence: number) => (options ? Math.ceil(pence / options.pence_per_key) : 0);
  const cost = option ? keysFor(option.price_pence * party) : 0;

  /** A session from sign-in or a verified registration: the keys balance, then the join step. */
  async function startSession(token: string, name: string) {
    const keys = await api<{ balance: number }>('/api/me/keys', { headers: { authorization: `Bearer ${token}` } });
    setSession({ token, name, balance: keys.balance });
    setStatus(`Signed in as ${name}. You have ${keys.balance} keys.`);
  }

  async function refreshKeys() {
    if (!session) return;
    try {
      const keys = await api<{ balance: number }>('/api/me/keys', { headers: { authorization: `Bearer ${session.token}` } });
      setSession({ ...session, balance: keys.balance });
      setError(null);
      setStatus(`You have ${keys.balance} keys.`);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Your keys could not be read.');
    }
  }

  async function join() {
    if (!session || !rule || !option) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api<Joined>(`${base}/guestlist-bookings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}`, 'Idempotency-Key': attemptKey },
        body: {
          rule_id: rule.id,
          date,
          party_size: party,
          option_kind: option.kind,
          ...(promo.trim() ? { promo_code: promo.trim() } : {}),
        },
      });
      setJoined(answer);
      setSession({ ...session, balance: session.balance - answer.keys_spent });
      setStatus(answer.status === 'approved' ? 'You are on the list.' : 'Your request is with the venue.');
      announceBooked('guestlist', answer.booking_id);
      askScrollTop();
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : new ApiError('failed', 'Something went wrong.', 0);
      setError(
        failure.kind === 'payment'
          ? `You need ${cost} keys and have ${session.balance}. Top up your keys, then try again.`
          : failure.message,
      );
      if (failure.kind === 'conflict' || failure.kind === 'invalid') {
        setAttemptKey(idempotencyKey());
        if (failure.kind === 'conflict') load(date);
      }
    } finally {
      setBusy(false);
    }
  }

  if (joined) {
    return (
      <section class="mw-step mw-done">
        <LiveStatus message={status} />
        <p class="mw-summary">
          <span aria-hidden="true">✓ </span>
          {joined.status === 'approved' ? 'You are on the list' : 'Request sent: the venue will confirm'} for {dateLabel(date)}
          {rule?.arrival_time ? `, from ${rule.arrival_time}` : ''},{' '}
          {party === 1 ? 'just you' : `you and ${party - 1} ${party === 2 ? 'guest' : 'guests'}`}.
        </p>
        <p>
          Keys spent: {joined.keys_spent}. Keys left: {session?.balance ?? 0}.
        </p>
        {joined.status === 'approved' ? <BookingQr venueId={props.venueId} bookingId={joined.booking_id} /> : null}
      </section>
    );
  }

  return (
    <div class="mw-step">
      <LiveStatus message={status} />
      <Alert message={error} />
      <DatePicker
        id="mw-gl-date"
        label="Date"
        value={date}
        min={props.today}
        max={addDays(props.today, 90)}
        onChange={(day) => {
          setDate(day);
          load(day);
        }}
      />
      {!options ? <p class="mw-hint">Looking for guest lists…</p> : null}
      {options?.rules.map((list) => (
        <fieldset key={list.id}>
          <legend>
            {list.display_title ?? list.name}
            {list.arrival_time ? `, from ${list.arrival_time}` : ''}
          </legend>
          {list.display_description ? <p class="mw-hint">{list.display_description}</p> : null}
          {!list.available ? <p>This list is {REASONS[list.reason ?? ''] ?? 'not open'}.</p> : null}
          {list.available
            ? list.options.map((o) => (
                <label class="mw-choice" key={o.kind}>
                  <input
                    type="radio"
                    name="mw-gl-option"
                    disabled={!o.available}
                    checked={choice?.ruleId === list.id && choice.kind === o.kind}
                    onChange={() => {
                      setChoice({ ruleId: list.id, kind: o.kind });
                      setParty((n) => Math.min(Math.max(n, list.party_size_min), list.party_size_max));
                    }}
                  />
                  <span>
                    {OPTION_NAMES[o.kind]}: {o.price_pence === 0 ? 'no keys' : `${keysFor(o.price_pence)} keys a person`}
                    {o.available ? '' : ' (full)'}
                  </span>
                </label>
              ))
            : null}
          {list.available && list.remaining_capacity !== null ? <p class="mw-hint">{list.remaining_capacity} places left.</p> : null}
        </fieldset>
      ))}
      {rule && option ? (
        <>
          <div class="mw-field">
            <label for="mw-gl-party">People, you included</label>
            <select id="mw-gl-party" value={party} onChange={(e) => setParty(Number((e.target as HTMLSelectElement).value))}>
              {Array.from({ length: rule.party_size_max - rule.party_size_min + 1 }, (_, i) => rule.party_size_min + i).map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? 'Just me' : `Me and ${n - 1} ${n === 2 ? 'guest' : 'guests'}`}
                </option>
              ))}
            </select>
          </div>
          {option.promo_eligible ? (
            <Field id="mw-gl-promo" label="Promo code (optional)" value={promo} onValue={(value) => setPromo(value)} />
          ) : null}
          <p class="mw-summary">{cost === 0 ? 'No keys needed.' : `Up to ${cost} keys (member perks and promo codes can lower it).`}</p>
          {session ? (
            <>
              <p>
                Signed in as {session.name}. Your keys: <strong>{session.balance}</strong>.
              </p>
              {session.balance < cost ? (
                <div class="mw-step">
                  <p>
                    You need {cost - session.balance} more keys.{' '}
                    <a href={`/account?need=${cost - session.balance}#keys`} target="_blank" rel="noopener noreferrer">
                      Top up keys<span class="mw-sr"> (opens in a new tab)</span>
                    </a>
                  </p>
                  <button type="button" class="mw-secondary" onClick={() => void refreshKeys()}>
                    I've topped up: check my keys
                  </button>
                </div>
              ) : null}
              <button type="button" class="mw-primary" disabled={busy} onClick={() => void join()}>
                {busy ? 'Joining…' : 'Join the list'}
              </button>
            </>
          ) : (
            <GuestListSignIn turnstileSiteKey={props.config.turnstile_site_key} onError={setError} onSignedIn={startSession} />
          )}
        </>
      ) : null}
    </div>
  );
}

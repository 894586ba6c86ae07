/**
 * "Join the waitlist" when no table is free on the chosen date for the party: the guest gives the window
 * of times they would take and their details; when a table in that window frees up, the venue offers it
 * to the first guest in line by mail (and text message) for a limited time (docs/waitlist.md).
 */
import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { dateLabel } from '../lib/format';
import { BotCheck } from '../ui/BotCheck';
import { Field } from '../ui/Field';
import { Alert } from '../ui/Shell';

interface Joined {
  position: number;
}

export function JoinWaitlist(props: {
  venueId: string;
  date: string;
  partySize: number;
  times: string[];
  siteKey: string | null | undefined;
}) {
  const { times } = props;
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(times[0] ?? '18:00');
  const [to, setTo] = useState(times.at(-1) ?? '22:00');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState<Joined | null>(null);

  if (joined) {
    return (
      <div class="mw-step mw-waitlist" role="status">
        <p>
          <strong>You are on the waitlist</strong> for {dateLabel(props.date)} (number {joined.position} in line).
        </p>
        <p>
          If a table frees up between {from} and {to}, we will email you first. You can leave the list from that email.
        </p>
      </div>
    );
  }
  if (!open) {
    return (
      <div class="mw-waitlist">
        <button type="button" class="mw-secondary" onClick={() => setOpen(true)}>
          Join the waitlist
        </button>
      </div>
    );
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (props.siteKey && !token) {
      setError('Please complete the check above.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await api<Joined>(`/api/public/venues/${encodeURIComponent(props.venueId)}/waitlist`, {
        method: 'POST',
        body: {
          date: props.date,
          party_size: props.partySize,
          time_from: from,
          time_to: to,
          guest_name: name,
          guest_email: email,
          ...(phone.trim() ? { guest_phone: phone.trim() } : {}),
          ...(token ? { turnstile_token: token } : {}),
        },
      });
      setJoined(answer);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'You could not be added to the waitlist. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const timeSelect = (id: string, label: string, value: string, set: (value: string) => void) => (
    <div class="mw-field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => set((event.target as HTMLSelectElement).value)}>
        {times.map((time) => (
          <option key={time} value={time}>
            {time}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <form class="mw-step mw-waitlist" onSubmit={(event) => void submit(event)} aria-labelledby="mw-waitlist-title">
      <h2 id="mw-waitlist-title">Join the waitlist for {dateLabel(props.date)}</h2>
      <p class="mw-hint">
        A table for {props.partySize}. When one frees up in your window, we offer it to the first guest in line for a short time.
      </p>
      <div class="mw-row">
        {timeSelect('mw-wl-from', 'From', from, setFrom)}
        {timeSelect('mw-wl-to', 'Until', to, setTo)}
      </div>
      <Field id="mw-wl-name" label="Name" value={name} onValue={setName} autocomplete="name" required />
      <Field id="mw-wl-email" label="Email" type="email" value={email} onValue={setEmail} autocomplete="email" inputMode="email" required />
      <Field id="mw-wl-phone" label="Phone (optional)" type="tel" value={phone} onValue={setPhone} autocomplete="tel" inputMode="tel" />
      <BotCheck siteKey={props.siteKey} onToken={setToken} />
      <Alert message={error} />
      <button type="submit" class="mw-primary" disabled={busy}>
        {busy ? 'Adding you…' : 'Join the waitlist'}
      </button>
    </form>
  );
}

/** Privacy: download my data, contact preferences per channel, and deleting the account (confirmed with the email). */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api';
import { Field } from '../ui/Field';
import { Alert } from '../ui/Shell';
import { meApi, type Session } from './session';

interface Preferences {
  marketing_email: boolean;
  marketing_sms: boolean;
  reminders_email: boolean;
  reminders_sms: boolean;
}

const LABELS: [keyof Preferences, string][] = [
  ['reminders_email', 'Booking reminders by email'],
  ['reminders_sms', 'Booking reminders by text message'],
  ['marketing_email', 'News and offers by email'],
  ['marketing_sms', 'News and offers by text message'],
];

export function Privacy(props: { session: Session; onStatus: (message: string) => void; onDeleted: () => void }) {
  const [prefs, setPrefs] = useState<Preferences | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [confirmEmail, setConfirmEmail] = useState('');
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const fail = (caught: unknown, fallback: string) => setError(caught instanceof ApiError ? caught.message : fallback);

  useEffect(() => {
    meApi<Preferences>(props.session, '/api/me/preferences')
      .then(setPrefs)
      .catch((caught: unknown) => fail(caught, 'Your preferences could not be loaded.'));
  }, []);

  async function download() {
    setError(null);
    try {
      const data = await meApi<unknown>(props.session, '/api/me/export');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      link.download = 'my-data.json';
      link.click();
      props.onStatus('Your data was downloaded as my-data.json.');
    } catch (caught) {
      fail(caught, 'Your data could not be exported.');
    }
  }

  async function save(event: Event) {
    event.preventDefault();
    if (!prefs) return;
    setBusy(true);
    setError(null);
    try {
      setPrefs(await meApi<Preferences>(props.session, '/api/me/preferences', { method: 'PUT', body: prefs }));
      props.onStatus('Your contact preferences are saved.');
    } catch (caught) {
      fail(caught, 'Your preferences could not be saved.');
    } finally {
      setBusy(false);
    }
  }

  async function erase() {
    if (confirmEmail.trim().toLowerCase() !== props.session.email.toLowerCase()) {
      setConfirmError('Type the email address of this account to confirm.');
      return;
    }
    setConfirmError(null);
    setBusy(true);
    try {
      await meApi(props.session, '/api/me', { method: 'DELETE', body: { confirm_email: confirmEmail.trim() } });
      props.onDeleted();
    } catch (caught) {
      fail(caught, 'Your account could not be deleted. Please try again.');
      setBusy(false);
    }
  }

  return (
    <>
      <Alert message={error} />
      <h2 class="mw-section">Your data</h2>
      <p>Download everything we hold about you: your account, bookings, tickets, vouchers, keys and preferences.</p>
      <button type="button" class="mw-secondary" onClick={() => void download()}>
        Download my data
      </button>
      <h2 class="mw-section">Contact preferences</h2>
      {prefs ? (
        <form class="mw-step" onSubmit={(event) => void save(event)}>
          <fieldset>
            <legend>What may we send you?</legend>
            {LABELS.map(([key, label]) => (
              <label class="mw-choice" key={key}>
                <input
                  type="checkbox"
                  checked={prefs[key]}
                  onChange={(e) => setPrefs({ ...prefs, [key]: (e.target as HTMLInputElement).checked })}
                />
                <span>{label}</span>
              </label>
            ))}
          </fieldset>
          <button type="submit" class="mw-primary" disabled={busy}>
            Save preferences
          </button>
        </form>
      ) : (
        <p class="mw-hint">Loading your preferences…</p>
      )}
      <h2 class="mw-section">Delete my account</h2>
      <p>
        This removes your name and contact details from your account and from every venue you booked with. Records of payments and of your
        visits stay, without your name. It cannot be undone.
      </p>
      {confirming ? (
        <div class="mw-step" role="group" aria-labelledby="mw-delete-confirm">
          <p id="mw-delete-confirm">
            <strong>Delete your account?</strong> Type your email address to confirm.
          </p>
          <Field
            id="mw-delete-email"
            label="Email address"
            type="email"
            autocomplete="off"
            value={confirmEmail}
            error={confirmError}
            onValue={setConfirmEmail}
          />
          <button type="button" class="mw-primary" disabled={busy} onClick={() => void erase()}>
            {busy ? 'Deleting…' : 'Delete my account'}
          </button>
          <button type="button" class="mw-secondary" onClick={() => setConfirming(false)}>
            Keep my account
          </button>
        </div>
      ) : (
        <button type="button" class="mw-secondary" onClick={() => setConfirming(true)}>
          Delete my account…
        </button>
      )}
    </>
  );
}

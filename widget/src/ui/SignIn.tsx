/**
 * Signing in as a guest: a 6-digit code mailed to the address, or the password. The account app's sign-in,
 * and the events widget's for the member price; the session it answers is the caller's to keep.
 */
import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { isEmail } from '../lib/format';
import { Field } from './Field';
import { Alert } from './Shell';

/** A signed-in guest: the bearer token and who it is. */
export interface GuestSession {
  token: string;
  name: string;
  email: string;
}

interface SignedIn {
  token?: string;
  user?: { name: string; email: string };
  requires_2fa?: boolean;
}

export function SignIn(props: {
  onSignedIn: (session: GuestSession) => void;
  /** The form's heading (default "Sign in"). */
  heading?: string;
  /** What the code is for, said before it is sent. */
  hint?: string;
}) {
  const [mode, setMode] = useState<'code' | 'password'>('code');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<'email' | 'password' | 'code', string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function finish(answer: SignedIn) {
    if (!answer.token || !answer.user) {
      setError('This account uses two-step sign-in, which this page does not offer. Sign in with a code instead.');
      return;
    }
    props.onSignedIn({ token: answer.token, name: answer.user.name, email: answer.user.email });
  }

  async function submit(event: Event) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!isEmail(email)) found.email = 'Enter your email address.';
    if (mode === 'password' && !password) found.password = 'Enter your password.';
    if (mode === 'code' && codeSent && !/^\d{6}$/.test(code.trim())) found.code = 'Enter the 6-digit code from the email.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      if (mode === 'password') {
        finish(await api<SignedIn>('/api/auth/login', { method: 'POST', body: { email: email.trim(), password } }));
      } else if (!codeSent) {
        await api('/api/account/sign-in-code', { method: 'POST', body: { email: email.trim() } });
        setCodeSent(true);
      } else {
        finish(
          await api<SignedIn>('/api/account/sign-in-code/verify', { method: 'POST', body: { email: email.trim(), code: code.trim() } }),
        );
      }
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Signing in failed. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const label = busy ? 'Please wait…' : mode === 'password' ? 'Sign in' : codeSent ? 'Sign in' : 'Email me a code';
  return (
    <form class="mw-step" onSubmit={(event) => void submit(event)} noValidate>
      <h2 class="mw-section">{props.heading ?? 'Sign in'}</h2>
      <div role="group" aria-label="How to sign in" class="mw-tabs">
        <button type="button" class="mw-tab" aria-pressed={mode === 'code' ? 'true' : 'false'} onClick={() => setMode('code')}>
          Code by email
        </button>
        <button type="button" class="mw-tab" aria-pressed={mode === 'password' ? 'true' : 'false'} onClick={() => setMode('password')}>
          Password
        </button>
      </div>
      <Alert message={error} />
      <Field
        id="mw-account-email"
        label="Email"
        type="email"
        autocomplete="email"
        value={email}
        error={errors.email}
        onValue={(value) => {
          setEmail(value);
          setCodeSent(false);
        }}
      />
      {mode === 'password' ? (
        <Field
          id="mw-account-password"
          label="Password"
          type="password"
          autocomplete="current-password"
          value={password}
          error={errors.password}
          onValue={setPassword}
        />
      ) : codeSent ? (
        <>
          <p role="status">
            We emailed a 6-digit code to <strong>{email.trim()}</strong>. It is valid for 10 minutes.
          </p>
          <Field
            id="mw-account-code"
            label="Sign-in code"
            autocomplete="one-time-code"
            inputMode="numeric"
            value={code}
            error={errors.code}
            onValue={setCode}
          />
        </>
      ) : (
        <p class="mw-hint">
          {props.hint ?? 'We email you a code: no password needed. Bookings made with this address show in your account.'}
        </p>
      )}
      <button type="submit" class="mw-primary" disabled={busy}>
        {label}
      </button>
    </form>
  );
}

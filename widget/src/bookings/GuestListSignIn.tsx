/**
 * The guest list's sign-in: password, a 6-digit code mailed to the address (the account's code sign-in), or
 * registering here in two steps (the code mailed to the address creates the account). Not the shared
 * SignIn: registering a new guest with a name and password is this form's own, and the guest list offers it.
 * Errors go to the caller's alert; the session it answers is the caller's to keep.
 */
import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { isEmail } from '../lib/format';
import { BotCheck } from '../ui/BotCheck';
import { Field } from '../ui/Field';

export function GuestListSignIn(props: {
  turnstileSiteKey?: string | null;
  onError: (message: string | null) => void;
  /** Called with the new session; what it throws is shown as the error. */
  onSignedIn: (token: string, name: string) => Promise<void>;
}) {
  const setError = props.onError;
  // `verify`: registered, waiting for the 6-digit code mailed to the address (nothing exists until it is entered).
  // `code`: sign in with a code mailed to the address (`codeSent` once it is on its way).
  const [mode, setMode] = useState<'signin' | 'register' | 'verify' | 'code'>('signin');
  const [codeSent, setCodeSent] = useState(false);
  const [account, setAccount] = useState({ name: '', email: '', password: '' });
  const [code, setCode] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<'name' | 'email' | 'password' | 'code', string>>>({});
  const [botToken, setBotToken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** A session from sign-in or a verified registration, unless the account needs two-step sign-in. */
  async function finish(answer: { token?: string; user?: { name: string } }) {
    if (!answer.token || !answer.user) {
      setError('This account uses two-step sign-in, which the booking page does not offer. Please sign in in the app.');
      return;
    }
    // Signed in, the caller shows the join step in place of this form, so the password goes with it.
    await props.onSignedIn(answer.token, answer.user.name);
  }

  /** Sign-in by a mailed code: asks for the code, then signs in with it. */
  async function codeSignIn() {
    if (!isEmail(account.email)) {
      setFieldErrors({ email: 'Enter your email address.' });
      return;
    }
    if (codeSent && !/^\d{6}$/.test(code.trim())) {
      setFieldErrors({ code: 'Enter the 6-digit code from the email.' });
      return;
    }
    setFieldErrors({});
    setBusy(true);
    setError(null);
    try {
      if (!codeSent) {
        await api('/api/account/sign-in-code', { method: 'POST', body: { email: account.email.trim() } });
        setCode('');
        setCodeSent(true);
      } else {
        await finish(
          await api<{ token: string; user: { name: string } }>('/api/account/sign-in-code/verify', {
            method: 'POST',
            body: { email: account.email.trim(), code: code.trim() },
          }),
        );
      }
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Signing in failed. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function verify() {
    if (!/^\d{6}$/.test(code.trim())) {
      setFieldErrors({ code: 'Enter the 6-digit code from the email.' });
      return;
    }
    setFieldErrors({});
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ token: string; user: { name: string } }>('/api/auth/verify-email', {
        method: 'POST',
        body: { email: account.email.trim(), code: code.trim() },
      });
      await finish(answer);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Checking the code failed. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function signIn(event: Event) {
    event.preventDefault();
    if (mode === 'verify') return verify();
    if (mode === 'code') return codeSignIn();
    const errors: typeof fieldErrors = {};
    if (mode === 'register' && !account.name.trim()) errors.name = 'Enter your name.';
    if (!isEmail(account.email)) errors.email = 'Enter your email address.';
    if (account.password.length < 8) errors.password = 'Passwords have at least 8 characters.';
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      if (mode === 'register') {
        // Step 1 of 2: the address is mailed a code (or, if it has an account, a reminder to sign in).
        await api<{ verification_required: true }>('/api/auth/register', {
          method: 'POST',
          body: {
            name: account.name.trim(),
            email: account.email.trim(),
            password: account.password,
            ...(botToken ? { turnstile_token: botToken } : {}),
          },
        });
        setCode('');
        setMode('verify');
        // The code step says where the code went (announced there, beside its field).
        return;
      }
      await finish(
        await api<{ token?: string; user?: { name: string }; requires_2fa?: boolean }>('/api/auth/login', {
          method: 'POST',
          body: { email: account.email.trim(), password: account.password },
        }),
      );
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Signing in failed. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="mw-step" onSubmit={(event) => void signIn(event)} noValidate>
      <div role="group" aria-label="Account" class="mw-tabs">
        <button type="button" class="mw-tab" aria-pressed={mode === 'signin' ? 'true' : 'false'} onClick={() => setMode('signin')}>
          I have an account
        </button>
        <button type="button" class="mw-tab" aria-pressed={mode === 'register' ? 'true' : 'false'} onClick={() => setMode('register')}>
          I'm new here
        </button>
        <button
          type="button"
          class="mw-tab"
          aria-pressed={mode === 'code' ? 'true' : 'false'}
          onClick={() => {
            setMode('code');
            setCodeSent(false);
          }}
        >
          Use an emailed code
        </button>
      </div>
      {mode === 'code' ? (
        <>
          <Field
            id="mw-gl-code-email"
            label="Email"
            type="email"
            autocomplete="email"
            value={account.email}
            error={fieldErrors.email}
            onValue={(value) => {
              setAccount({ ...account, email: value });
              setCodeSent(false);
            }}
          />
          {codeSent ? (
            <>
              <p role="status">
                We emailed a 6-digit sign-in code to <strong>{account.email.trim()}</strong>. It is valid for 10 minutes.
              </p>
              <Field
                id="mw-gl-signin-code"
                label="Sign-in code"
                autocomplete="one-time-code"
                inputMode="numeric"
                value={code}
                error={fieldErrors.code}
                onValue={(value) => setCode(value)}
              />
            </>
          ) : null}
        </>
      ) : mode === 'verify' ? (
        <>
          <p role="status">
            We emailed a 6-digit code to <strong>{account.email.trim()}</strong>. It is valid for 15 minutes. If the address already has an
            account, the email says so: sign in instead.
          </p>
          <Field
            id="mw-gl-code"
            label="Verification code"
            autocomplete="one-time-code"
            inputMode="numeric"
            value={code}
            error={fieldErrors.code}
            onValue={(value) => setCode(value)}
          />
        </>
      ) : (
        <>
          {mode === 'register' ? (
            <Field
              id="mw-gl-name"
              label="Name"
              autocomplete="name"
              value={account.name}
              error={fieldErrors.name}
              onValue={(value) => setAccount({ ...account, name: value })}
            />
          ) : null}
          <Field
            id="mw-gl-email"
            label="Email"
            type="email"
            autocomplete="email"
            value={account.email}
            error={fieldErrors.email}
            onValue={(value) => setAccount({ ...account, email: value })}
          />
          <Field
            id="mw-gl-password"
            label="Password"
            type="password"
            autocomplete={mode === 'signin' ? 'current-password' : 'new-password'}
            value={account.password}
            error={fieldErrors.password}
            onValue={(value) => setAccount({ ...account, password: value })}
          />
          {mode === 'register' ? <BotCheck siteKey={props.turnstileSiteKey} onToken={setBotToken} /> : null}
        </>
      )}
      <button type="submit" class="mw-primary" disabled={busy}>
        {busy
          ? 'Please wait…'
          : mode === 'signin'
            ? 'Sign in'
            : mode === 'register'
              ? 'Create account'
              : mode === 'code'
                ? codeSent
                  ? 'Sign in'
                  : 'Email me a code'
                : 'Verify and sign in'}
      </button>
    </form>
  );
}

/**
 * Promoter self sign-up (`/app/promoter-sign-up`, opened without a session; linked from the sign-in form):
 * a name, an email and a password (typed twice) ask for a code (`POST /api/promoter/register`), then the
 * 6-digit code mailed to the address creates the promoter account (`POST /api/promoter/verify-email`),
 * which answers a session: the promoter is signed in and lands on their events, where they ask venues.
 * The server answers every address alike, so the page never says whether an address has an account.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { session } from '../api/session';

const MIN_PASSWORD = 8;
const failure = (caught: unknown) =>
  caught instanceof ApiError ? caught.message : 'Could not reach the server: check the connection and try again.';

export default function PromoterSignUpPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function askForCode() {
    await call(api.POST('/api/promoter/register', { body: { name: name.trim(), email: email.trim(), password } }));
  }

  async function submitDetails(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (password.length < MIN_PASSWORD) return setError(`The password needs at least ${MIN_PASSWORD} characters.`);
    if (password !== repeat) return setError('The two passwords differ: type the same password twice.');
    setBusy(true);
    try {
      await askForCode();
      setNotice(null);
      setStep('code');
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setError(null);
    setBusy(true);
    try {
      await askForCode();
      setCode('');
      setNotice('We sent a new code. Only the newest codes work; each for 15 minutes.');
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setBusy(false);
    }
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const answer = await call(api.POST('/api/promoter/verify-email', { body: { email: email.trim(), code: code.trim() } }));
      // Whoever was signed in on this browser before makes way for the new promoter.
      client.clear();
      session.signIn({ token: answer.token, user: answer.user });
      await navigate({ to: '/promoter', search: {} });
    } catch (caught) {
      setError(failure(caught));
      setBusy(false);
    }
  }

  const errorLine = error && (
    <p className="error" role="alert">
      {error}
    </p>
  );

  return (
    <main className="sign-in" id="main">
      <div className="sign-in__card">
        <p className="brand">Maitred</p>
        {step === 'details' ? (
          <>
            <h1>Sign up as a promoter</h1>
            <p className="muted">Run nights at venues: submit your events to them and follow your ticket sales and your share.</p>
            <Form onSubmit={(e) => void submitDetails(e)} validationBehavior="aria">
              <TextField name="name" isRequired autoComplete="name" className="field" value={name} onChange={setName} maxLength={200}>
                <Label>Your name (or your promoter name)</Label>
                <Input />
                <FieldError />
              </TextField>
              <TextField
                name="email"
                type="email"
                isRequired
                autoComplete="username"
                className="field"
                value={email}
                onChange={setEmail}
                maxLength={254}
              >
                <Label>Email</Label>
                <Input />
                <FieldError />
              </TextField>
              <TextField
                name="password"
                type="password"
                isRequired
                autoComplete="new-password"
                className="field"
                value={password}
                onChange={setPassword}
                minLength={MIN_PASSWORD}
              >
                <Label>Password (at least {MIN_PASSWORD} characters)</Label>
                <Input />
                <FieldError />
              </TextField>
              <TextField
                name="repeat"
                type="password"
                isRequired
                autoComplete="new-password"
                className="field"
                value={repeat}
                onChange={setRepeat}
              >
                <Label>Repeat the password</Label>
                <Input />
                <FieldError />
              </TextField>
              {errorLine}
              <Button type="submit" className="button button--primary button--wide" isDisabled={busy}>
                {busy ? 'Sending…' : 'Send me a code'}
              </Button>
            </Form>
            <p className="muted">
              Already have an account? <a href="/app/">Sign in</a>
            </p>
          </>
        ) : (
          <>
            <h1>Check your email</h1>
            <p>
              We sent a 6-digit code to <strong>{email.trim()}</strong>. Enter it to create your promoter account. It works once, for 15
              minutes. (If this address already has an account, the email says so instead: sign in with it.)
            </p>
            {notice && (
              <p className="notice" role="status">
                {notice}
              </p>
            )}
            <Form onSubmit={(e) => void submitCode(e)} validationBehavior="aria">
              <input type="hidden" name="username" autoComplete="username" value={email.trim()} />
              <TextField
                name="code"
                isRequired
                autoFocus
                inputMode="numeric"
                autoComplete="one-time-code"
                className="field"
                value={code}
                onChange={setCode}
              >
                <Label>Code from the email</Label>
                <Input pattern="[0-9]{6}" maxLength={6} />
                <FieldError />
              </TextField>
              {errorLine}
              <Button type="submit" className="button button--primary button--wide" isDisabled={busy}>
                {busy ? 'Checking…' : 'Create my account'}
              </Button>
            </Form>
            <p className="actions">
              <Button className="button button--quiet" onPress={() => void resend()} isDisabled={busy}>
                Send a new code
              </Button>
              <Button
                className="button button--quiet"
                onPress={() => {
                  setStep('details');
                  setCode('');
                  setError(null);
                  setNotice(null);
                }}
                isDisabled={busy}
              >
                Use another address
              </Button>
            </p>
          </>
        )}
      </div>
    </main>
  );
}

/** The sign-in form (and its two-factor step); after it, the page that was open carries on. */
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { session } from '../api/session';

export function SignIn({ expired }: { expired: boolean }) {
  const [challenge, setChallenge] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const finish = (answer: { user: { id: string; name: string; email: string; role: string }; token: string }) => {
    // Venue staff and promoters share the portal; a promoter sees only their own events (the promoter shell).
    if (answer.user.role !== 'client' && answer.user.role !== 'promoter') {
      setError('This account is not a venue staff or promoter account.');
      return;
    }
    session.signIn({ token: answer.token, user: answer.user });
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      if (challenge) {
        finish(await call(api.POST('/api/2fa/validate', { body: { challenge_id: challenge, code: String(form.get('code')) } })));
      } else {
        const answer = await call(
          api.POST('/api/auth/login', { body: { email: String(form.get('email')), password: String(form.get('password')) } }),
        );
        if ('requires_2fa' in answer) setChallenge(answer.challenge_id);
        else finish(answer);
      }
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Could not reach the server: check the connection and try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in" id="main">
      <div className="sign-in__card">
        <p className="brand">Maitred</p>
        <h1>{challenge ? 'Two-step check' : 'Sign in'}</h1>
        {expired && !challenge && (
          <p className="notice" role="status">
            Session expired: sign in again to carry on where you were.
          </p>
        )}
        <Form onSubmit={(e) => void submit(e)} validationBehavior="aria">
          {challenge ? (
            <TextField name="code" isRequired autoFocus inputMode="numeric" autoComplete="one-time-code" className="field">
              <Label>Authentication code</Label>
              <Input pattern="[0-9]{6}" />
              <FieldError />
            </TextField>
          ) : (
            <>
              <TextField name="email" type="email" isRequired autoComplete="username" className="field">
                <Label>Email</Label>
                <Input />
                <FieldError />
              </TextField>
              <TextField name="password" type="password" isRequired autoComplete="current-password" className="field">
                <Label>Password</Label>
                <Input />
                <FieldError />
              </TextField>
            </>
          )}
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <Button type="submit" className="button button--primary button--wide" isDisabled={busy}>
            {challenge ? 'Verify' : 'Sign in'}
          </Button>
          {challenge && (
            <Button className="button button--quiet" onPress={() => setChallenge(null)}>
              Back
            </Button>
          )}
        </Form>
        {!challenge && (
          <p className="muted">
            <Link to="/promoter-sign-up">Promoter? Sign up</Link>
          </p>
        )}
      </div>
    </main>
  );
}

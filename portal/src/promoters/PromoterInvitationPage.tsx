/**
 * A venue's promoter invitation link (`/app/promoter-invitation?token=…`), opened without a session: which
 * venue invited the reader, at what share, and a password (typed twice) that creates their promoter account
 * (`POST /api/promoter-invitations/accept`); then it signs them in and opens their events.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { session } from '../api/session';

const MIN_PASSWORD = 8;

export default function PromoterInvitationPage() {
  const { token } = useSearch({ from: '/promoter-invitation' });
  const invitation = useQuery({
    queryKey: ['promoter-invitation', token],
    queryFn: () => call(api.GET('/api/promoter-invitations/{token}', { params: { path: { token: token ?? '' } } })),
    enabled: Boolean(token),
    retry: false,
  });
  const navigate = useNavigate();
  const client = useQueryClient();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token || !invitation.data) return;
    setError(null);
    if (password.length < MIN_PASSWORD) return setError(`The password needs at least ${MIN_PASSWORD} characters.`);
    if (password !== repeat) return setError('The two passwords differ: type the same password twice.');
    setBusy(true);
    try {
      await call(api.POST('/api/promoter-invitations/accept', { body: { token, password } }));
      const answer = await call(api.POST('/api/auth/login', { body: { email: invitation.data.email, password } }));
      if ('requires_2fa' in answer) throw new Error('unexpected two-factor step for a new user');
      // Whoever was signed in on this browser before makes way for the new user.
      client.clear();
      session.signIn({ token: answer.token, user: answer.user });
      await navigate({ to: '/promoter', search: {} });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Could not reach the server: check the connection and try again.');
      setBusy(false);
    }
  }

  const gone = !token || (invitation.error instanceof ApiError && invitation.error.status === 404);
  return (
    <main className="sign-in" id="main">
      <div className="sign-in__card">
        <p className="brand">Maitred</p>
        {gone ? (
          <>
            <h1>Invitation not valid</h1>
            <p>This invitation link has been used, revoked or has expired. Ask the venue to send a new one.</p>
            <p>
              <a href="/app/">Sign in to the portal</a>
            </p>
          </>
        ) : invitation.isPending ? (
          <>
            <h1>Invitation</h1>
            <p className="muted">Loading…</p>
          </>
        ) : invitation.error ? (
          <>
            <h1>Invitation</h1>
            <p className="error" role="alert">
              {invitation.error instanceof ApiError ? invitation.error.message : 'Could not reach the server: reload to try again.'}
            </p>
          </>
        ) : (
          <>
            <h1>Run events at {invitation.data.venue_name}</h1>
            <p>
              {invitation.data.venue_name} invited you, {invitation.data.name}, to submit events there as a promoter, with a{' '}
              <strong>{invitation.data.share_percent}%</strong> share of your events’ ticket revenue.
            </p>
            <p className="muted">
              You will sign in as <strong>{invitation.data.email}</strong>. Choose a password to accept; the link works until{' '}
              {new Date(invitation.data.expires_at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })}.
            </p>
            <Form onSubmit={(e) => void submit(e)} validationBehavior="aria">
              <input type="hidden" name="username" autoComplete="username" value={invitation.data.email} />
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
              {error && (
                <p className="error" role="alert">
                  {error}
                </p>
              )}
              <Button type="submit" className="button button--primary button--wide" isDisabled={busy}>
                {busy ? 'Joining…' : 'Accept and sign in'}
              </Button>
            </Form>
          </>
        )}
      </div>
    </main>
  );
}

/**
 * The invitation link (`/app/invitation?token=…`), opened without a session: who invited the reader to
 * which account and role, and a password (typed twice) that creates their portal user
 * (`POST /api/invitations/accept`); then it signs them in as the sign-in form does and opens the portal.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { session } from '../api/session';

const MIN_PASSWORD = 8;

export default function InvitationPage() {
  const { token } = useSearch({ from: '/invitation' });
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => call(api.GET('/api/invitations/{token}', { params: { path: { token: token ?? '' } } })),
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
      await call(api.POST('/api/invitations/accept', { body: { token, password } }));
      const answer = await call(api.POST('/api/auth/login', { body: { email: invitation.data.email, password } }));
      if ('requires_2fa' in answer) throw new Error('unexpected two-factor step for a new user');
      // Whoever was signed in on this browser before makes way for the new user.
      client.clear();
      session.signIn({ token: answer.token, user: answer.user });
      await navigate({ to: '/', search: {} });
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
            <p>This invitation link has been used, revoked or has expired. Ask whoever invited you to send a new one.</p>
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
            <h1>Join {invitation.data.operator_name}</h1>
            <p>
              {invitation.data.invited_by_name ?? 'The account'} invited you, {invitation.data.name}, to the{' '}
              <strong>{invitation.data.operator_name}</strong> portal with the role <strong>{invitation.data.role_name}</strong>.
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

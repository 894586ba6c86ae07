/**
 * The end of an invitation link (a portal user's or a promoter's): a password typed twice, then `accept`
 * (the invitation's own accept call) creates the account, and the reader is signed in as the sign-in form
 * does and sent to `to`.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { api, ApiError, call } from '../api/client';
import { session } from '../api/session';

const MIN_PASSWORD = 8;

export function AcceptWithPassword(props: { email: string; accept: (password: string) => Promise<unknown>; to: '/' | '/promoter' }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (password.length < MIN_PASSWORD) return setError(`The password needs at least ${MIN_PASSWORD} characters.`);
    if (password !== repeat) return setError('The two passwords differ: type the same password twice.');
    setBusy(true);
    try {
      await props.accept(password);
      const answer = await call(api.POST('/api/auth/login', { body: { email: props.email, password } }));
      if ('requires_2fa' in answer) throw new Error('unexpected two-factor step for a new user');
      // Whoever was signed in on this browser before makes way for the new user.
      client.clear();
      session.signIn({ token: answer.token, user: answer.user });
      await navigate({ to: props.to, search: {} });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Could not reach the server: check the connection and try again.');
      setBusy(false);
    }
  }

  return (
    <Form onSubmit={(e) => void submit(e)} validationBehavior="aria">
      <input type="hidden" name="username" autoComplete="username" value={props.email} />
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
      <TextField name="repeat" type="password" isRequired autoComplete="new-password" className="field" value={repeat} onChange={setRepeat}>
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
  );
}

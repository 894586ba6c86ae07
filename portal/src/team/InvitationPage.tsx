/**
 * The invitation link (`/app/invitation?token=…`), opened without a session: who invited the reader to
 * which account and role, and a password (typed twice) that creates their portal user
 * (`POST /api/invitations/accept`); then it signs them in as the sign-in form does and opens the portal.
 */
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { api, ApiError, call } from '../api/client';
import { AcceptWithPassword } from '../shell/AcceptWithPassword';

export default function InvitationPage() {
  const { token } = useSearch({ from: '/invitation' });
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => call(api.GET('/api/invitations/{token}', { params: { path: { token: token ?? '' } } })),
    enabled: Boolean(token),
    retry: false,
  });
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
            <AcceptWithPassword
              email={invitation.data.email}
              accept={(password) => call(api.POST('/api/invitations/accept', { body: { token: token ?? '', password } }))}
              to={'/'}
            />
          </>
        )}
      </div>
    </main>
  );
}

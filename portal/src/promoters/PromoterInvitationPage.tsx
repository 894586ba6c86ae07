/**
 * A venue's promoter invitation link (`/app/promoter-invitation?token=…`), opened without a session: which
 * venue invited the reader, at what share, and a password (typed twice) that creates their promoter account
 * (`POST /api/promoter-invitations/accept`); then it signs them in and opens their events.
 */
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { api, ApiError, call } from '../api/client';
import { AcceptWithPassword } from '../shell/AcceptWithPassword';

export default function PromoterInvitationPage() {
  const { token } = useSearch({ from: '/promoter-invitation' });
  const invitation = useQuery({
    queryKey: ['promoter-invitation', token],
    queryFn: () => call(api.GET('/api/promoter-invitations/{token}', { params: { path: { token: token ?? '' } } })),
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
            <AcceptWithPassword
              email={invitation.data.email}
              accept={(password) => call(api.POST('/api/promoter-invitations/accept', { body: { token: token ?? '', password } }))}
              to={'/promoter'}
            />
          </>
        )}
      </div>
    </main>
  );
}

/**
 * The guest's own account (`/account`, docs/account.md): sign-in by a mailed code or the password, then
 * my bookings, tickets, vouchers, keys, memberships and privacy, one screen at a time (the address's hash names it,
 * so the payment page can send the guest back to their keys).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api';
import { LiveStatus } from '../ui/Shell';
import { Bookings } from './Bookings';
import { Keys } from './Keys';
import { Memberships } from './Memberships';
import { Privacy } from './Privacy';
import { loadSession, saveSession, type Session } from './session';
import { SignIn } from '../ui/SignIn';
import { Tickets, Vouchers } from './Wallet';

const SCREENS = [
  ['bookings', 'Bookings'],
  ['tickets', 'Tickets'],
  ['vouchers', 'Vouchers'],
  ['keys', 'Keys'],
  ['memberships', 'Memberships'],
  ['privacy', 'Privacy'],
] as const;
type Screen = (typeof SCREENS)[number][0];

const screenOf = (hash: string): Screen => SCREENS.find(([key]) => `#${key}` === hash)?.[0] ?? 'bookings';

export function AccountApp() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [screen, setScreen] = useState<Screen>(screenOf(location.hash));
  const [status, setStatus] = useState('');

  useEffect(() => {
    const onHash = () => setScreen(screenOf(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  // A session that ended (signed out elsewhere, expired) goes back to sign-in.
  useEffect(() => {
    if (!session) return;
    api('/api/auth/me', { headers: { authorization: `Bearer ${session.token}` } }).catch(() => signedIn(null));
  }, []);

  function signedIn(next: Session | null) {
    saveSession(next);
    setSession(next);
    setStatus(next ? `Signed in as ${next.name || next.email}.` : '');
  }

  async function signOut() {
    if (session)
      await api('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${session.token}` } }).catch(() => undefined);
    signedIn(null);
    setStatus('You are signed out.');
  }

  const title = SCREENS.find(([key]) => key === screen)?.[1] ?? 'Bookings';
  return (
    <div class="mw-page">
      <header class="mw-header">
        <div>
          <p class="mw-venue">{session ? session.name || session.email : 'Maitred'}</p>
          <h1 class="mw-title">{session ? `Your ${title.toLowerCase()}` : 'Your account'}</h1>
        </div>
      </header>
      {session ? (
        <nav aria-label="Your account" class="mw-tabs mw-account-nav">
          {SCREENS.map(([key, label]) => (
            <a key={key} class="mw-tab" href={`#${key}`} aria-current={screen === key ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
      ) : null}
      <main>
        <LiveStatus message={status} />
        {!session ? (
          <SignIn onSignedIn={signedIn} />
        ) : (
          <>
            {screen === 'bookings' ? <Bookings session={session} onStatus={setStatus} /> : null}
            {screen === 'tickets' ? <Tickets session={session} /> : null}
            {screen === 'vouchers' ? <Vouchers session={session} /> : null}
            {screen === 'keys' ? <Keys session={session} /> : null}
            {screen === 'memberships' ? <Memberships session={session} onStatus={setStatus} /> : null}
            {screen === 'privacy' ? (
              <Privacy
                session={session}
                onStatus={setStatus}
                onDeleted={() => {
                  signedIn(null);
                  setStatus('Your account is deleted.');
                }}
              />
            ) : null}
            <p>
              <button type="button" class="mw-link" onClick={() => void signOut()}>
                Sign out
              </button>
            </p>
          </>
        )}
      </main>
    </div>
  );
}

/**
 * The app shell: sign-in when there is no session (the URL stays, so the same page opens after it; an
 * invitation link and promoter sign-up open without one), then the top bar with the venue switcher, the
 * navigation the caller's permissions allow, and sign-out.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { Suspense } from 'react';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { api } from '../api/client';
import { session } from '../api/session';
import { SignIn } from './SignIn';
import { useCan, useCurrentVenue, usePermissions, useSession, useVenues } from './account';

const OPEN_PAGES = new Set<string>(['/invitation', '/promoter-invitation', '/promoter-sign-up']);

export function Shell() {
  const { session: current, expired } = useSession();
  // An invitation link and promoter sign-up open on their own, signed in or not: finishing them signs in as the new user.
  const invitation = useRouterState({
    select: (state) => state.matches.some((match) => OPEN_PAGES.has(match.routeId)),
  });
  if (invitation)
    return (
      <Suspense fallback={<p className="page">Loading…</p>}>
        <Outlet />
      </Suspense>
    );
  if (!current) return <SignIn expired={expired} />;
  if (current.user.role === 'promoter') return <PromoterShell name={current.user.name} />;
  return <SignedIn name={current.user.name} />;
}

/** A promoter's shell: no venue switcher and no staff pages, only their own events (`/promoter`). */
function PromoterShell({ name }: { name: string }) {
  const client = useQueryClient();
  const onPromoter = useRouterState({ select: (state) => state.matches.some((match) => match.routeId === '/promoter') });
  async function signOut() {
    await api.POST('/api/auth/logout').catch((error: unknown) => console.warn('the sign-out request failed', error));
    session.signOut();
    client.clear();
  }
  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Maitred</span>
        <nav aria-label="Main" className="nav">
          <Link to="/promoter" search={{}} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
            My events
          </Link>
        </nav>
        <span className="topbar__user">{name}</span>
        <Button className="button button--quiet" onPress={() => void signOut()}>
          Sign out
        </Button>
      </header>
      {onPromoter ? (
        <Suspense fallback={<p className="page">Loading…</p>}>
          <Outlet />
        </Suspense>
      ) : (
        <Navigate to="/promoter" search={{}} replace />
      )}
    </div>
  );
}

function SignedIn({ name }: { name: string }) {
  const can = useCan();
  const permissions = usePermissions();
  const venue = useCurrentVenue();
  const { data: venues, error } = useVenues();
  const navigate = useNavigate();
  const client = useQueryClient();
  // The set-up pages open without a venue too: the checklist is where the first venue is created. Read
  // from the matches shown (not the location, which moves first), so a page needing a venue never renders without one.
  const onEvent = useRouterState({ select: (state) => state.matches.some((match) => match.routeId === '/events/$eventId') });
  const setup = useRouterState({ select: (state) => state.matches.some((match) => match.routeId.startsWith('/setup')) });

  async function signOut() {
    // A sign-out that cannot reach the server still ends the session here; the token then lapses when it expires.
    await api.POST('/api/auth/logout').catch((error: unknown) => console.warn('the sign-out request failed', error));
    session.signOut();
    client.clear();
  }

  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Maitred</span>
        {venues && venues.length > 0 && venue && (
          <Select
            className="venue-switch"
            selectedKey={venue.id}
            // Another venue opens on the same page (its other choices, such as the floor's date, start afresh);
            // from one event's page, on the other venue's events.
            onSelectionChange={(key) =>
              void navigate(onEvent ? { to: '/events', search: { venue: String(key) } } : { to: '.', search: { venue: String(key) } })
            }
          >
            <Label className="visually-hidden">Venue</Label>
            <Button className="button button--quiet">
              <SelectValue />
              <span aria-hidden="true"> ▾</span>
            </Button>
            <Popover>
              <ListBox items={venues} className="menu">
                {(item) => (
                  <ListBoxItem id={item.id} className="menu__item">
                    {item.name}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </Select>
        )}
        <nav aria-label="Main" className="nav">
          {can('bookings', 'read') && (
            <Link to="/floor" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Floor
            </Link>
          )}
          {can('bookings', 'write') && (
            <Link to="/door" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Door
            </Link>
          )}
          {can('bookings', 'read') && (
            <Link to="/waitlist" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Waitlist
            </Link>
          )}
          {can('guests', 'read') && (
            <Link
              to="/guests"
              search={{ venue: venue?.id }}
              className="nav__link"
              activeOptions={{ includeSearch: false }}
              activeProps={{ 'aria-current': 'page' }}
            >
              Guests
            </Link>
          )}
          {can('events', 'read') && (
            <Link
              to="/events"
              search={{ venue: venue?.id }}
              className="nav__link"
              activeOptions={{ includeSearch: false }}
              activeProps={{ 'aria-current': 'page' }}
            >
              Events
            </Link>
          )}
          {can('events', 'read') && (
            <Link to="/promoters" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Promoters
            </Link>
          )}
          {can('venues.settings', 'write') && (
            <Link to="/setup" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Setup
            </Link>
          )}
          {(can('users.user', 'read') || can('users.role', 'read') || can('operators.members', 'read')) && (
            <Link to="/team" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Team
            </Link>
          )}
          {can('vouchers', 'read') && (
            <Link to="/vouchers" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Vouchers
            </Link>
          )}
          {can('operators.settings', 'read') && (
            <Link to="/webhooks" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Webhooks
            </Link>
          )}
          {can('operators.audit', 'read') && (
            <Link to="/audit-log" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Audit log
            </Link>
          )}
          {can('catalogue', 'read') && (
            <Link to="/memberships" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Memberships
            </Link>
          )}
          {can('stats', 'read') && (
            <Link to="/numbers" search={{ venue: venue?.id }} className="nav__link" activeProps={{ 'aria-current': 'page' }}>
              Numbers
            </Link>
          )}
        </nav>
        <span className="topbar__user">{name}</span>
        <Button className="button button--quiet" onPress={() => void signOut()}>
          Sign out
        </Button>
      </header>
      {(error ?? permissions.error) && (
        <p className="error page" role="alert">
          {(error ?? permissions.error)?.message}
        </p>
      )}
      {venues && venues.length === 0 && !setup && (
        <main className="page" id="main">
          <h1>No venues yet</h1>
          <p>Your account has no venue you may work on.</p>
          {can('venues.settings', 'write') && (
            <p>
              <Link to="/setup" search={{}}>
                Set up your first venue
              </Link>
            </p>
          )}
        </main>
      )}
      {/* The page waits for the venues and the permissions (asked for together), so its own requests start at once, together. */}
      <Suspense fallback={<p className="page">Loading…</p>}>{(venue ?? (setup && venues)) && permissions.data && <Outlet />}</Suspense>
    </div>
  );
}

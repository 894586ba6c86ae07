/**
 * The set-up pages' own navigation, rendered at the top of each of them: the checklist, the venue's
 * settings, and the screens for availability, the floorplan, the catalogue, branding and payouts. Links
 * carry the venue (`?venue=`) and are ordinary links (open in a new tab works) that the router follows
 * in place.
 */
import { useRouter, useRouterState } from '@tanstack/react-router';
import type { MouseEvent, ReactNode } from 'react';
import './setup.css';

export const SETUP_PAGES = [
  { path: '/setup', label: 'Checklist' },
  { path: '/setup/venue', label: 'Venue' },
  { path: '/setup/availability', label: 'Availability' },
  { path: '/setup/floorplan', label: 'Floorplan' },
  { path: '/setup/catalogue', label: 'Catalogue' },
  { path: '/setup/branding', label: 'Branding' },
  { path: '/setup/payouts', label: 'Payouts' },
] as const;

/** A set-up path with the venue and an optional `#section`, as the browser's address (under /app). */
export function setupHref(path: string, venueId: string | undefined, section?: string) {
  return `/app${path}${venueId ? `?venue=${encodeURIComponent(venueId)}` : ''}${section ? `#${section}` : ''}`;
}

/**
 * A link to a set-up page by its path, which may belong to a screen added separately: a plain click is
 * handled by the router's history (no reload), anything else (new tab, middle click) by the browser.
 */
export function SetupLink(props: {
  path: string;
  venueId: string | undefined;
  section?: string;
  className?: string;
  current?: boolean;
  children: ReactNode;
}) {
  const router = useRouter();
  const href = setupHref(props.path, props.venueId, props.section);
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    router.history.push(href);
  }
  return (
    <a href={href} className={props.className} aria-current={props.current ? 'page' : undefined} onClick={follow}>
      {props.children}
    </a>
  );
}

export function SetupNav({ venueId }: { venueId: string | undefined }) {
  const path = useRouterState({ select: (state) => state.location.pathname.replace(/^\/app(?=\/)/, '').replace(/\/$/, '') });
  return (
    <nav aria-label="Set-up" className="setup-nav">
      {SETUP_PAGES.map((page) => (
        <SetupLink key={page.path} path={page.path} venueId={venueId} className="setup-nav__link" current={path === page.path}>
          {page.label}
        </SetupLink>
      ))}
    </nav>
  );
}

/**
 * A set-up page opened before the account has a venue (the set-up routes render without one, so the
 * checklist can create the first): the navigation, the page's title, and the way to the checklist.
 */
export function SetupNeedsVenue({ title }: { title: string }) {
  return (
    <main className="page setup" id="main">
      <SetupNav venueId={undefined} />
      <h1>{title}</h1>
      <p>
        There is no venue to set up yet:{' '}
        <SetupLink path="/setup" venueId={undefined}>
          create your first venue on the checklist
        </SetupLink>
        .
      </p>
    </main>
  );
}

/**
 * The account app's session: a bearer token, kept in this tab's sessionStorage (first-party page, no
 * cookie) so it survives the trip to the payment page and back; it ends when the tab closes or on sign-out.
 */
import { api } from '../lib/api';
import type { GuestSession } from '../ui/SignIn';

const KEY = 'maitred.account';

export type Session = GuestSession;

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  try {
    if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage off: the session lives in memory only.
  }
}

/** An API call as the signed-in guest. */
export function meApi<T>(session: Session, path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  return api<T>(path, { ...options, headers: { authorization: `Bearer ${session.token}` } });
}

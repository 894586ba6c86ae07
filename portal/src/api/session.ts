/**
 * The signed-in session: the bearer token in memory and in sessionStorage (so a reload keeps it, a new tab
 * or a closed browser does not; the API needs no cookies). Listeners hear sign-in, sign-out and expiry.
 */
const KEY = 'maitred.session';

export interface Session {
  token: string;
  user: { id: string; name: string; email: string; role: string };
}

type State = { session: Session | null; expired: boolean };
let state: State = { session: read(), expired: false };
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

function set(next: State) {
  state = next;
  if (next.session) sessionStorage.setItem(KEY, JSON.stringify(next.session));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export const session = {
  get: () => state,
  token: () => state.session?.token,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn: (next: Session) => set({ session: next, expired: false }),
  signOut: () => set({ session: null, expired: false }),
  /** The API answered 401: the form comes back over the page, which stays where it was. */
  expire: () => {
    if (state.session) set({ session: null, expired: true });
  },
};

/**
 * The state of a guest's visit (what they entered, where they are in the flow, a purchase awaiting
 * payment), kept so a reload resumes it: in this document's sessionStorage where the browser allows it
 * (a widget opened on its own), and with the host page through the embed protocol (a framed widget,
 * whose own storage a browser may deny).
 */
import { useEffect, useState } from 'preact/hooks';
import { onRestore, saveWithHost } from './embed';

function readOwn<T>(key: string): T | null {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

/**
 * `init(saved)` makes the state from a saved one (or none); `onRestored` runs when the host page hands
 * back a saved state after the first render (e.g. to finalise a payment).
 */
export function useVisit<T extends object>(key: string, init: (saved: T | null) => T, onRestored?: (state: T) => void) {
  const [state, setState] = useState<T>(() => init(readOwn<T>(key)));
  useEffect(() => {
    onRestore(key, (value) => {
      if (!value || typeof value !== 'object') return;
      const restored = init(value as T);
      setState(restored);
      onRestored?.(restored);
    });
  }, []);
  useEffect(() => {
    try {
      sessionStorage.setItem(key, JSON.stringify(state));
    } catch {
      // Denied in a third-party frame: the host page keeps it instead.
    }
    saveWithHost(key, state);
  }, [key, state]);
  return [state, setState] as const;
}

/**
 * The editor's state for one floor: the document with its undo history, saved to the server a moment
 * after each change (optimistic: the screen shows the change at once). A refusal rolls the document
 * back to what the server holds and says why in words.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { historyReducer, startHistory } from './history';
import { docFromServer, learnIds, planSave, type KeyIds, type PlanDoc, type ServerFloor } from './model';
import { loadFloor, runPlan } from './save';

export type SaveStatus = { state: 'loading' | 'saving' | 'saved' } | { state: 'error'; message: string };

const EMPTY: PlanDoc = { tables: [], combos: [], decor: [] };
/** How long the editor waits after a change before saving (a run of arrow presses is one save). */
const SAVE_DELAY_MS = 250;

export function useFloorplan(venueId: string, floorId: string | undefined, onSaved: () => void) {
  const [history, dispatch] = useReducer(historyReducer<PlanDoc>, EMPTY, startHistory);
  const [status, setStatus] = useState<SaveStatus>({ state: 'loading' });
  const server = useRef<ServerFloor | null>(null);
  const ids = useRef<KeyIds>(new Map());
  const saved = useRef<PlanDoc>(EMPTY);
  const latest = useRef(history.present);
  latest.current = history.present;
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!floorId) return;
    let stale = false;
    setStatus({ state: 'loading' });
    void loadFloor(venueId, floorId).then(
      (floor) => {
        if (stale) return;
        server.current = floor;
        ids.current = new Map();
        const doc = docFromServer(floor, ids.current);
        saved.current = doc;
        dispatch({ type: 'reset', present: doc });
        setStatus({ state: 'saved' });
      },
      (error: Error) => !stale && setStatus({ state: 'error', message: error.message }),
    );
    return () => {
      stale = true;
    };
  }, [venueId, floorId]);

  const inFlight = useRef<Promise<void> | null>(null);
  const save = useCallback((): Promise<void> => {
    if (inFlight.current) return inFlight.current;
    if (!floorId || !server.current || latest.current === saved.current) return Promise.resolve();
    const base = server.current;
    const doc = latest.current;
    setStatus({ state: 'saving' });
    inFlight.current = (async () => {
      try {
        await runPlan(venueId, floorId, planSave(base, doc, ids.current), doc, ids.current);
        server.current = await loadFloor(venueId, floorId);
        learnIds(server.current, doc, ids.current);
        saved.current = doc;
        setStatus({ state: 'saved' });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        try {
          server.current = await loadFloor(venueId, floorId);
          const back = docFromServer(server.current, ids.current);
          saved.current = back;
          latest.current = back;
          dispatch({ type: 'rollback', present: back });
        } catch (reload) {
          // The server cannot be read either: the document stays, and the next change tries again.
          console.warn('the floor could not be read after a refused save', reload);
        }
        setStatus({ state: 'error', message: `Not saved: ${message}. The floor shows what is saved.` });
      } finally {
        onSaved();
        inFlight.current = null;
        // Changes made while saving are saved next.
        setRound((n) => n + 1);
      }
    })();
    return inFlight.current;
  }, [venueId, floorId, onSaved]);

  /** Saves what is waiting now (before the editor leaves the floor). */
  const flush = useCallback(async () => {
    await inFlight.current;
    await save();
  }, [save]);

  useEffect(() => {
    if (history.present === saved.current) return;
    const timer = setTimeout(() => void save(), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [history.present, save, round]);

  return {
    doc: history.present,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    status,
    /** Applies an edit (the caller has checked it: numbers, seats). */
    change: useCallback((next: PlanDoc) => dispatch({ type: 'do', next }), []),
    undo: useCallback(() => dispatch({ type: 'undo' }), []),
    redo: useCallback(() => dispatch({ type: 'redo' }), []),
    flush,
    /** Whether the document differs from what the server holds. */
    pending: history.present !== saved.current || status.state === 'saving',
  };
}

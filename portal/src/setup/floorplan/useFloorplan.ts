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
  const saving = useRef(false);
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

  const save = useCallback(async () => {
    if (!floorId || !server.current || saving.current || latest.current === saved.current) return;
    saving.current = true;
    setStatus({ state: 'saving' });
    const doc = latest.current;
    try {
      await runPlan(venueId, floorId, planSave(server.current, doc, ids.current), doc, ids.current);
      server.current = await loadFloor(venueId, floorId);
      learnIds(server.current, doc, ids.current);
      saved.current = doc;
      setStatus({ state: 'saved' });
      onSaved();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      try {
        server.current = await loadFloor(venueId, floorId);
        const back = docFromServer(server.current, ids.current);
        saved.current = back;
        dispatch({ type: 'rollback', present: back });
      } catch {
        // The server cannot be read either: the document stays, and the next change tries again.
      }
      setStatus({ state: 'error', message: `Not saved: ${message}. The floor shows what is saved.` });
      onSaved();
    } finally {
      saving.current = false;
      // Changes made while saving are saved next.
      setRound((n) => n + 1);
    }
  }, [venueId, floorId, onSaved]);

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
    /** Every number in use at the venue is checked by the caller; this one applies an edit. */
    change: useCallback((next: PlanDoc) => dispatch({ type: 'do', next }), []),
    undo: useCallback(() => dispatch({ type: 'undo' }), []),
    redo: useCallback(() => dispatch({ type: 'redo' }), []),
    /** Whether the document differs from what the server holds. */
    pending: history.present !== saved.current || status.state === 'saving',
  };
}

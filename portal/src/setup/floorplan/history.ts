/**
 * Undo and redo as a pure reducer over whole documents: each edit pushes the document it replaces, undo
 * and redo walk the two stacks, and a refusal from the server rolls the present back to what the server
 * holds (the refused edit cannot be redone).
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
}

export type HistoryAction<T> =
  | { type: 'do'; next: T }
  | { type: 'undo' }
  | { type: 'redo' }
  /** A new document (another floor, or the first load): no history. */
  | { type: 'reset'; present: T }
  /** The server refused the present: show what it holds and forget the redo stack. */
  | { type: 'rollback'; present: T };

/** Edits remembered; older ones fall off. */
export const HISTORY_LIMIT = 100;

export const startHistory = <T>(present: T): History<T> => ({ past: [], present, future: [] });

export function historyReducer<T>(state: History<T>, action: HistoryAction<T>): History<T> {
  switch (action.type) {
    case 'do':
      if (action.next === state.present) return state;
      return { past: [...state.past, state.present].slice(-HISTORY_LIMIT), present: action.next, future: [] };
    case 'undo': {
      if (state.past.length === 0) return state;
      const previous = state.past[state.past.length - 1];
      return { past: state.past.slice(0, -1), present: previous, future: [state.present, ...state.future] };
    }
    case 'redo': {
      if (state.future.length === 0) return state;
      const [next, ...rest] = state.future;
      return { past: [...state.past, state.present], present: next, future: rest };
    }
    case 'reset':
      return startHistory(action.present);
    case 'rollback':
      return { past: state.past, present: action.present, future: [] };
  }
}

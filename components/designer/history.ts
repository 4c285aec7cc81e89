/**
 * Undo/redo over whole values (the designer keeps document texts). Pure: every operation returns
 * a new history. A change with a `group` that repeats the previous change's group replaces the
 * present instead of adding a step, so typing into one field is one step, not one per key.
 */
export interface History<T> {
  readonly past: readonly T[];
  readonly present: T;
  readonly future: readonly T[];
  readonly group: string | null;
}

const LIMIT = 200;

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], group: null };
}

export function record<T>(history: History<T>, next: T, group: string | null = null): History<T> {
  if (Object.is(next, history.present)) return history;
  if (group !== null && group === history.group) return { ...history, present: next, future: [] };
  return { past: [...history.past, history.present].slice(-LIMIT), present: next, future: [], group };
}

export function undo<T>(history: History<T>): History<T> {
  const previous = history.past.at(-1);
  if (history.past.length === 0) return history;
  return { past: history.past.slice(0, -1), present: previous as T, future: [history.present, ...history.future], group: null };
}

export function redo<T>(history: History<T>): History<T> {
  if (history.future.length === 0) return history;
  const [next, ...rest] = history.future;
  return { past: [...history.past, history.present], present: next as T, future: rest, group: null };
}

export const canUndo = (history: History<unknown>) => history.past.length > 0;
export const canRedo = (history: History<unknown>) => history.future.length > 0;

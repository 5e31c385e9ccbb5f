import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, onApiHealth } from '../api/client';

/**
 * Loads with `load` whenever `key` changes; `reload` runs it again (after a write), keeping the last
 * value meanwhile, and answers once that load has settled (its value or error is in the state). A
 * screen shows "Saved." only after awaiting it: a form made again from the new value would
 * otherwise drop what the person typed after reading "Saved.". A load refused with 503 runs again
 * once the platform answers.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): { value: T | undefined; error: unknown; reload: () => Promise<void> } {
  const [state, setState] = useState<{ key: string; value?: T; error?: unknown }>({ key });
  const [round, setRound] = useState(0);
  const loader = useCallback(load, [key]);
  // Callers of `reload` waiting for the next load to settle; a load cut short by a newer one hands them on to it.
  const waiting = useRef<Array<() => void>>([]);

  useEffect(() => {
    let current = true;
    const waiters = waiting.current.splice(0);
    const settled = () => waiters.forEach((resolve) => resolve());
    loader().then(
      (value) => {
        if (!current) return;
        setState({ key, value });
        settled();
      },
      // A failed reload keeps what the last load found (the screen stays; the error shows beside it).
      (error: unknown) => {
        if (!current) return;
        setState((previous) => ({ key, error, ...(previous.key === key ? { value: previous.value } : {}) }));
        settled();
      },
    );
    return () => {
      current = false;
      waiting.current.unshift(...waiters);
    };
  }, [loader, key, round]);

  // Unmounted, no load will settle: nobody waits for one.
  useEffect(() => () => waiting.current.splice(0).forEach((resolve) => resolve()), []);

  const reload = useCallback(
    () =>
      new Promise<void>((resolve) => {
        waiting.current.push(resolve);
        setRound((count) => count + 1);
      }),
    [],
  );
  // A load the platform refused with 503 runs again as soon as a call answers again.
  const unavailable = state.key === key && state.error instanceof ApiError && state.error.status === 503;
  useEffect(() => {
    if (!unavailable) return;
    return onApiHealth((status) => status === 'ok' && void reload());
  }, [unavailable, reload]);
  return state.key === key ? { value: state.value, error: state.error, reload } : { value: undefined, error: undefined, reload };
}

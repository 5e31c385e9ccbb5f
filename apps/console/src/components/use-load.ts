import { useCallback, useEffect, useState } from 'react';
import { ApiError, onApiHealth } from '../api/client';

/**
 * Loads with `load` whenever `key` changes; `reload` runs it again (after a write), keeping the last
 * value meanwhile. A load refused with 503 runs again once the platform answers.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): { value: T | undefined; error: unknown; reload: () => void } {
  const [state, setState] = useState<{ key: string; value?: T; error?: unknown }>({ key });
  const [round, setRound] = useState(0);
  const loader = useCallback(load, [key]);

  useEffect(() => {
    let current = true;
    loader().then(
      (value) => current && setState({ key, value }),
      // A failed reload keeps what the last load found (the screen stays; the error shows beside it).
      (error: unknown) => current && setState((previous) => ({ key, error, ...(previous.key === key ? { value: previous.value } : {}) })),
    );
    return () => {
      current = false;
    };
  }, [loader, key, round]);

  const reload = useCallback(() => setRound((count) => count + 1), []);
  // A load the platform refused with 503 runs again as soon as a call answers again.
  const unavailable = state.key === key && state.error instanceof ApiError && state.error.status === 503;
  useEffect(() => {
    if (!unavailable) return;
    return onApiHealth((status) => status === 'ok' && reload());
  }, [unavailable, reload]);
  return state.key === key ? { value: state.value, error: state.error, reload } : { value: undefined, error: undefined, reload };
}

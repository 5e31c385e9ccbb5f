import { useCallback, useEffect, useState } from 'react';

/** Loads with `load` whenever `key` changes; `reload` runs it again (after a write), keeping the last value meanwhile. */
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
  return state.key === key ? { value: state.value, error: state.error, reload } : { value: undefined, error: undefined, reload };
}

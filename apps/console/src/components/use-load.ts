import { useCallback, useEffect, useState } from 'react';

/** Loads with `load` whenever `key` changes; `reload` runs it again (after a write). */
export function useLoad<T>(load: () => Promise<T>, key: string): { value: T | undefined; error: unknown; reload: () => void } {
  const [state, setState] = useState<{ key: string; value?: T; error?: unknown }>({ key });
  const [round, setRound] = useState(0);
  const loader = useCallback(load, [key]);

  useEffect(() => {
    let current = true;
    loader().then(
      (value) => current && setState({ key, value }),
      (error: unknown) => current && setState({ key, error }),
    );
    return () => {
      current = false;
    };
  }, [loader, key, round]);

  const reload = useCallback(() => setRound((count) => count + 1), []);
  return state.key === key ? { value: state.value, error: state.error, reload } : { value: undefined, error: undefined, reload };
}

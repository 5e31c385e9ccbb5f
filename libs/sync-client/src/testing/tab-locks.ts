import type { TabLocks } from '../tab-coordinator.js';

type Callback = (lock: unknown) => Promise<void> | void;

/**
 * Web Locks as one browser gives them to its tabs, for Node tests: one holder per name at a time,
 * waiters served in the order they asked, `ifAvailable` answered with `null` when held.
 */
export function sharedTabLocks(): TabLocks {
  const held = new Set<string>();
  const waiting = new Map<string, Array<() => void>>();

  async function hold(name: string, callback: Callback): Promise<void> {
    held.add(name);
    try {
      await callback({ name });
    } finally {
      held.delete(name);
      waiting.get(name)?.shift()?.();
    }
  }

  function request(name: string, optionsOrCallback: { ifAvailable: true } | Callback, maybeCallback?: Callback): Promise<unknown> {
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : (maybeCallback as Callback);
    if (!held.has(name)) return hold(name, callback);
    if (typeof optionsOrCallback !== 'function') return Promise.resolve(callback(null));
    return new Promise<void>((resolve, reject) => {
      const queue = waiting.get(name) ?? [];
      waiting.set(name, queue);
      queue.push(() => hold(name, callback).then(resolve, reject));
    });
  }

  return { request } as TabLocks;
}

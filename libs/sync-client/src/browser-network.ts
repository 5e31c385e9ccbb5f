import { NetworkError } from './http.js';

/** The browser's window (its `online` and `offline` events); undefined in Node. */
export const browserWindow = typeof (globalThis as { addEventListener?: unknown }).addEventListener === 'function' ? (globalThis as unknown as EventTarget) : undefined;

/**
 * Whether the browser says it has no network (`navigator.onLine === false`). Where there is no
 * navigator (Node) or it does not say, the network is taken to be there and requests tell.
 */
export function browserSaysOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: unknown } }).navigator?.onLine === false;
}

/**
 * `sync()`, `push()` or `pull()` called while the browser says it has no network: refused at once,
 * nothing sent and the queue kept. A NetworkError, so code that retries on one keeps working.
 */
export class OfflineError extends NetworkError {
  constructor() {
    super(new Error('the browser is offline (navigator.onLine is false): nothing was sent, queued changes stay queued'));
    this.name = 'OfflineError';
  }
}

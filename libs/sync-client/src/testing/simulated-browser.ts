/**
 * A browser's network signals for Node tests: a window-like event target and a navigator. The client
 * looks for the window when its module loads, so a test stubs `globals` (with its test runner, e.g.
 * vitest's `vi.stubGlobal`) before it imports the client. `goOffline` and `comeOnline` change
 * `navigator.onLine` and the given network together, then dispatch the event the browser would.
 */
export function simulatedBrowser() {
  const window = new EventTarget();
  const navigator = { onLine: true };
  const globals = {
    addEventListener: window.addEventListener.bind(window),
    removeEventListener: window.removeEventListener.bind(window),
    navigator,
  };

  function goOffline(network: { online: boolean }): void {
    navigator.onLine = false;
    network.online = false;
    window.dispatchEvent(new Event('offline'));
  }

  function comeOnline(network: { online: boolean }): void {
    navigator.onLine = true;
    network.online = true;
    window.dispatchEvent(new Event('online'));
  }

  return { globals, navigator, goOffline, comeOnline };
}

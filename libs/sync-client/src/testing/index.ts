/** Test helpers for code that uses the sync client: a network that can drop (refused, or silent through a TCP proxy), a request or answer held until released, a browser's online and offline signals, clients that sync only when told, copy comparison, a randomized multi-peer session, Web Locks shared by simulated tabs. */
export { comparable } from './comparable.js';
export { flakyNetwork, type FlakyNetwork } from './flaky-network.js';
export { heldFetch } from './held-fetch.js';
export { quietClients } from './quiet-clients.js';
export { runRandomizedSession, type Peer } from './randomized-session.js';
export { silentDropProxy, type SilentDropProxy } from './silent-drop-proxy.js';
export { simulatedBrowser } from './simulated-browser.js';
export { sharedTabLocks } from './tab-locks.js';

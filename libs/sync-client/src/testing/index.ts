/** Test helpers for code that uses the sync client: a network that can drop, copy comparison, a randomized multi-peer session. */
export { comparable } from './comparable';
export { flakyNetwork, type FlakyNetwork } from './flaky-network';
export { runRandomizedSession, type Peer } from './randomized-session';

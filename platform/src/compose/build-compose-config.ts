import { ensureComposeConfigBinary } from './compose-config';

/** Builds (or finds cached) the compose file checker before any test clock starts (.ci/run). */
console.log(`compose-config: ${await ensureComposeConfigBinary()}`);

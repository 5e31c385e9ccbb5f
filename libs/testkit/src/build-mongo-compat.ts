import { ensureMongoCompatBinary } from './mongo-compat-build';

/** Builds (or finds cached) the MongoDB-compatible test server, so no test pays for the build. */
const binary = await ensureMongoCompatBinary();
console.log(`mongo-compat test server: ${binary}`);

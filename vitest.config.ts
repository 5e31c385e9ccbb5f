import { defineConfig } from 'vitest/config';

// One test run for the whole workspace. Real backends (MongoDB-compatible server, NATS, Redis) are
// started once by the testkit's global setup and handed to tests through `inject('backends')`.
export default defineConfig({
  test: {
    include: ['libs/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'platform/src/**/*.test.ts'],
    globalSetup: ['libs/testkit/src/global-setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});

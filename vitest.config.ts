import { defineConfig } from 'vitest/config';

const everyTest = ['libs/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'platform/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'bench/src/**/*.test.ts'];
const backendSuffixes = ['int.test.ts', 'api.test.ts'];

// Two projects, one run: `pnpm test` runs both, `pnpm test:unit` only `unit`.
// `unit`: every *.test.ts but the two suffixes below; it starts no backend, so a unit file runs
// without Go, nats-server or redis-server. `integration`: *.int.test.ts and *.api.test.ts; the
// testkit's global setup starts the real backends (MongoDB-compatible server, NATS, Redis) once
// and hands them to tests through `inject('backends')`. A unit test must not use the testkit
// (libs/testkit/src/test-projects.int.test.ts checks).
export default defineConfig({
  test: {
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: everyTest, exclude: ['**/node_modules/**', ...backendSuffixes.map((suffix) => `**/*.${suffix}`)] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: everyTest.flatMap((glob) => backendSuffixes.map((suffix) => glob.replace('*.test.ts', `*.${suffix}`))),
          globalSetup: ['libs/testkit/src/global-setup.ts'],
        },
      },
    ],
  },
});

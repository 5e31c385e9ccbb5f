import type { TestProject } from 'vitest/node';
import { acquireAllBackends } from './backends';

/**
 * Vitest global setup of the `integration` project (vitest.config.ts): starts the shared
 * MongoDB-compatible server, NATS and Redis once per run and hands their URLs to its test files
 * through `inject('backends')`. The `unit` project has none, so a unit run starts nothing; each
 * backend is announced by a `[testkit]` line, which test-projects.int.test.ts relies on.
 */
export default async function setup(project: TestProject) {
  const { report, stopAll } = await acquireAllBackends();
  for (const [kind, backend] of Object.entries(report)) {
    const line = backend.url ? `${kind}: ${backend.url} (${backend.source})` : `${kind}: unavailable, ${backend.reason}`;
    console.log(`[testkit] ${line}`);
  }
  project.provide('backends', report);
  return stopAll;
}

import type { TestProject } from 'vitest/node';
import { acquireAllBackends } from './backends';

/**
 * Vitest global setup: starts the shared MongoDB-compatible server, NATS and Redis once per run
 * and hands their URLs to every test file through `inject('backends')`.
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

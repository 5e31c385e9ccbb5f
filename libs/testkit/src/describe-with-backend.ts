import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import type { BackendKind, BackendReport } from './backends';
import { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer } from './local-servers';
import { hasExecutableSync } from './processes';

declare module 'vitest' {
  export interface ProvidedContext {
    backends: BackendReport;
  }
}

/**
 * Declares a suite that needs a real backend. Without one the suite is skipped with the reason
 * in its title, except in CI (`CI=true`), where a missing backend is a failing test.
 */
export function describeWithBackend(kind: BackendKind, title: string, body: (backend: { url: string }) => void): void {
  const backend = inject('backends')[kind];
  if (backend.url) {
    describe(title, () => body({ url: backend.url }));
    return;
  }
  if (process.env.CI === 'true') {
    describe(title, () => {
      it(`needs ${kind}`, () => {
        throw new Error(`CI must run this suite against a real ${kind}: ${backend.reason}`);
      });
    });
    return;
  }
  describe.skipIf(true)(`${title} [skipped: ${backend.reason}]`, () => body({ url: '' }));
}

/** Several backends at once, same rules; the body gets each backend's URL by kind. */
export function describeWithBackends(kinds: BackendKind[], title: string, body: (urls: Record<BackendKind, string>) => void): void {
  const report = inject('backends');
  const urls = { mongo: '', nats: '', redis: '' } as Record<BackendKind, string>;
  const reasons: string[] = [];
  for (const kind of kinds) {
    const entry = report[kind];
    if (entry.url) urls[kind] = entry.url;
    else reasons.push(`${kind}: ${entry.reason}`);
  }
  if (reasons.length === 0) {
    describe(title, () => body(urls));
    return;
  }
  if (process.env.CI === 'true') {
    describe(title, () => {
      it(`needs ${kinds.join(', ')}`, () => {
        throw new Error(`CI must run this suite against real backends: ${reasons.join('; ')}`);
      });
    });
    return;
  }
  describe.skipIf(true)(`${title} [skipped: ${reasons.join('; ')}]`, () => body(urls));
}

const restartableServers: Record<BackendKind, { executable: string; start: () => Promise<LocalServer> }> = {
  mongo: { executable: 'go', start: startMongoCompatServer },
  nats: { executable: 'nats-server', start: startNatsServer },
  redis: { executable: 'redis-server', start: startRedisServer },
};

/**
 * A suite that stops and restarts its backend (outage and crash tests), so it gets a private
 * server from the local binary rather than the shared one. Skipped with the reason when the
 * binary is missing, failing in CI.
 */
export function describeWithOwnServer(kind: BackendKind, title: string, body: (server: () => LocalServer) => void): void {
  const recipe = restartableServers[kind];
  if (!hasExecutableSync(recipe.executable)) {
    const reason = `needs ${recipe.executable} on PATH to run a private ${kind} server`;
    if (process.env.CI === 'true') {
      describe(title, () => {
        it(reason, () => {
          throw new Error(`CI must run this suite: ${reason}`);
        });
      });
      return;
    }
    describe.skipIf(true)(`${title} [skipped: ${reason}]`, () => body(() => undefined as never));
    return;
  }
  describe(title, () => {
    let server: LocalServer | undefined;
    beforeAll(async () => {
      server = await recipe.start();
    }, 300_000);
    afterAll(async () => {
      await server?.dispose();
    });
    body(() => {
      if (!server) throw new Error(`the private ${kind} server did not start`);
      return server;
    });
  });
}

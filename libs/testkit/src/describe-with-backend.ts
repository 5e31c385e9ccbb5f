import { describe, inject, it } from 'vitest';
import type { BackendKind, BackendReport } from './backends';

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

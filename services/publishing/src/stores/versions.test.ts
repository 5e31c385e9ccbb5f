import { temporaryEmbeddedStore, type TemporaryStore } from '@platform/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredVersion } from '../domain/versions';
import { ABANDONED_AFTER_MS, VersionStore } from './versions';

let temporary: TemporaryStore;
let versions: VersionStore;
const projectId = 'p1';
let appCount = 0;

beforeAll(async () => {
  temporary = await temporaryEmbeddedStore('publishing-versions');
  versions = new VersionStore(temporary.store);
});

afterAll(async () => {
  await temporary?.dispose();
});

/** Version 1 of a fresh application, as the publish of `attempt` at `createdAt` snapshots it. */
function version1(applicationId: string, attempt: string, createdAt: number, publishedBy = attempt): StoredVersion {
  return { id: `${applicationId}:1`, applicationId, versionNumber: 1, publishedBy, title: { en: attempt }, routes: [], serverConfiguration: {}, createdAt, _attempt: attempt };
}

function freshApplication(): string {
  appCount += 1;
  return `app-${appCount}`;
}

describe('VersionStore.settle', () => {
  it("marks the publish's own row settled", async () => {
    const mine = version1(freshApplication(), 'a', 1_000);
    await versions.insert(projectId, mine);
    await versions.settle(projectId, mine);
    expect(await versions.find(projectId, mine.id)).toEqual({ ...mine, _settled: true });
  });

  it("writes the snapshot back over another attempt's row, and where the row is missing", async () => {
    const applicationId = freshApplication();
    const mine = version1(applicationId, 'a', 1_000);
    await versions.insert(projectId, version1(applicationId, 'b', 1_000 + ABANDONED_AFTER_MS + 1));
    await versions.settle(projectId, mine);
    expect(await versions.find(projectId, mine.id)).toEqual({ ...mine, _settled: true });

    const lost = version1(freshApplication(), 'a', 1_000);
    await versions.settle(projectId, lost);
    expect(await versions.find(projectId, lost.id)).toEqual({ ...lost, _settled: true });
  });
});

describe('VersionStore.claim of an abandoned row', () => {
  it('replaces the row in place when the application has not taken the number', async () => {
    const applicationId = freshApplication();
    await versions.insert(projectId, version1(applicationId, 'crashed', 1_000));
    const next = version1(applicationId, 'next', 1_000 + ABANDONED_AFTER_MS + 1);
    expect(await versions.claim(projectId, next, async () => true)).toBe(true);
    expect(await versions.find(projectId, next.id)).toEqual(next);
  });

  it('leaves a settled row alone, even when it judged the number untaken just before the publish that took it settled', async () => {
    const applicationId = freshApplication();
    const stalled = version1(applicationId, 'stalled', 1_000);
    await versions.insert(projectId, stalled);
    const later = version1(applicationId, 'later', 1_000 + ABANDONED_AFTER_MS + 1);
    // The claim read the stalled row unsettled; the stalled publish's patch lands and it settles
    // before the claim writes.
    const stillUntaken = async () => {
      await versions.settle(projectId, stalled);
      return true;
    };
    expect(await versions.claim(projectId, later, stillUntaken)).toBe(false);
    expect(await versions.find(projectId, stalled.id)).toEqual({ ...stalled, _settled: true });
    // Once settled, a claim refuses without asking.
    expect(await versions.claim(projectId, later, async () => true)).toBe(false);
  });
});

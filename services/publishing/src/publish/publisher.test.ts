import { dataService } from '@platform/data';
import { dataDeps, type DataDeps } from '@platform/documents';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishingService } from '../app';
import { ApplicationReader } from '../stores/applications';
import { ABANDONED_AFTER_MS, VersionStore, versionsCollection } from '../stores/versions';
import { gate } from '../testing/gate';
import { Publisher } from './publisher';

let platform: TestGateway;
let projectId: string;
let ownerToken: string;
const owner = { userId: 'owner', superuser: true, permissions: new Set<string>() };

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService, publishingService] });
  projectId = await platform.seedProject({ ownerId: 'owner' });
  ownerToken = await platform.signIn('owner');
});

afterAll(async () => {
  await platform?.close();
});

describe('Publisher when the application changes between its read and its patch', () => {
  it('answers 409, removes the version row it inserted, and leaves the application unpublished', async () => {
    const { writer } = dataDeps(platform.context);
    const scope = ApplicationReader.scope(projectId);
    const app = await writer.create(scope, { title: { en: 'Before' }, routes: [], serverConfiguration: {} }, { userId: 'owner' });
    // A client edit lands after the publish read revision 0 and inserted version 1.
    const interleaved = {
      patch: async (...args: Parameters<typeof writer.patch>) => {
        await writer.patch(scope, app.id, { $set: { title: { en: 'Edited' } } }, { userId: 'someone', baseRevision: 0 });
        return writer.patch(...args);
      },
    };
    const forgotten: string[] = [];
    const publisher = new Publisher(new ApplicationReader(platform.context.store), new VersionStore(platform.context.store), interleaved, Date.now, (_p, appId) => forgotten.push(appId));

    await expect(publisher.publish(projectId, app.id, owner)).rejects.toMatchObject({ statusCode: 409, code: 'PUBLISHING_CONCURRENT_PUBLISH', details: { versionNumber: 1 } });
    expect(await platform.context.store.collection(versionsCollection(projectId)).count({ applicationId: app.id })).toBe(0);
    const stored = await new ApplicationReader(platform.context.store).live(projectId, app.id);
    expect(stored).toMatchObject({ revision: 1, title: { en: 'Edited' } });
    expect(stored?.publishedVersionNumber).toBeUndefined();
    expect(forgotten).toEqual([]);

    // The next publish snapshots the edited application as version 1.
    const publisherAfter = new Publisher(new ApplicationReader(platform.context.store), new VersionStore(platform.context.store), writer, Date.now, (_p, appId) => forgotten.push(appId));
    expect(await publisherAfter.publish(projectId, app.id, owner)).toMatchObject({ versionNumber: 1, title: { en: 'Edited' } });
    expect(forgotten).toEqual([app.id]);
  });
});

type ApplicationWriter = Pick<DataDeps['writer'], 'patch'>;

/**
 * `writer` as a publish meets it on MongoDB: the patch's preceding writes (the version claim) run
 * first, on their own, then `meanwhile`, then the patch, in no atomic section with the claim.
 */
function claimThenPatch(writer: ApplicationWriter, meanwhile: () => Promise<void>): ApplicationWriter {
  return {
    patch: async (scope, id, modifier, { preceding, ...options }) => {
      await preceding?.(platform.context.store);
      await meanwhile();
      return writer.patch(scope, id, modifier, options);
    },
  };
}

function publisherWith(writer: ApplicationWriter, clock: () => number) {
  const forgotten: string[] = [];
  const publisher = new Publisher(new ApplicationReader(platform.context.store), new VersionStore(platform.context.store), writer, clock, (_p, appId) => forgotten.push(appId));
  return { publisher, forgotten };
}

describe('Publisher on MongoDB, where the version claim goes before the patch and not with it', () => {
  const alice = { ...owner, userId: 'alice' };
  const bob = { ...owner, userId: 'bob' };
  /** B's clock: late enough that A's row, claimed a moment ago, counts as abandoned. */
  const aMinuteLater = () => Date.now() + ABANDONED_AFTER_MS + 1_000;

  async function application(): Promise<string> {
    const { writer } = dataDeps(platform.context);
    return (await writer.create(ApplicationReader.scope(projectId), { title: { en: 'Shop' }, routes: [{ path: '/' }], serverConfiguration: { k: 1 } }, { userId: 'owner' })).id;
  }

  async function row(appId: string) {
    return new VersionStore(platform.context.store).find(projectId, `${appId}:1`);
  }

  /** The versions as GET .../versions lists them. */
  async function listed(appId: string) {
    const answer = await platform.call('GET', `/api/projects/${projectId}/applications/${appId}/versions`, { token: ownerToken });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  it('a publish that stalled past ABANDONED_AFTER_MS and still landed its patch keeps its version: the later one that took its row over answers 409, and the row is the first one\'s snapshot again', async () => {
    const { writer } = dataDeps(platform.context);
    const appId = await application();
    const aClaimed = gate();
    const aMayPatch = gate();
    const aPatched = gate();
    // A claims version 1 and stalls; B, a minute later, replaces A's row as abandoned, then lets
    // A's patch land before its own, which then loses.
    const a = publisherWith(
      claimThenPatch({ patch: (...args) => writer.patch(...args).finally(aPatched.open) }, async () => {
        aClaimed.open();
        await aMayPatch.opened;
      }),
      Date.now,
    );
    const b = publisherWith(
      claimThenPatch(writer, async () => {
        aMayPatch.open();
        await aPatched.opened;
      }),
      aMinuteLater,
    );

    const publishedByA = a.publisher.publish(projectId, appId, alice);
    await aClaimed.opened;
    await expect(b.publisher.publish(projectId, appId, bob)).rejects.toMatchObject({ statusCode: 409, code: 'PUBLISHING_CONCURRENT_PUBLISH', details: { versionNumber: 1 } });
    const version = await publishedByA;

    expect(version).toMatchObject({ versionNumber: 1, publishedBy: 'alice' });
    expect(await new ApplicationReader(platform.context.store).live(projectId, appId)).toMatchObject({ publishedVersionNumber: 1, publishedVersionId: `${appId}:1`, publishedAt: version.createdAt });
    expect(await row(appId)).toEqual({ ...version, _settled: true });
    expect(await listed(appId)).toEqual([{ id: `${appId}:1`, applicationId: appId, versionNumber: 1, publishedBy: 'alice', title: { en: 'Shop' }, createdAt: version.createdAt }]);
    expect(a.forgotten).toEqual([appId]);
    expect(b.forgotten).toEqual([]);
  });

  it("when the later publish's patch lands first, the stalled one answers 409 and leaves the later one's row alone", async () => {
    const { writer } = dataDeps(platform.context);
    const appId = await application();
    const aClaimed = gate();
    const aMayPatch = gate();
    const a = publisherWith(
      claimThenPatch(writer, async () => {
        aClaimed.open();
        await aMayPatch.opened;
      }),
      Date.now,
    );
    const b = publisherWith(
      claimThenPatch(writer, async () => {}),
      aMinuteLater,
    );

    const publishedByA = a.publisher.publish(projectId, appId, alice);
    await aClaimed.opened;
    const version = await b.publisher.publish(projectId, appId, bob);
    aMayPatch.open();
    await expect(publishedByA).rejects.toMatchObject({ statusCode: 409, code: 'PUBLISHING_CONCURRENT_PUBLISH', details: { versionNumber: 1 } });

    expect(await new ApplicationReader(platform.context.store).live(projectId, appId)).toMatchObject({ publishedVersionNumber: 1, publishedAt: version.createdAt });
    expect(await row(appId)).toEqual({ ...version, _settled: true });
    expect((await listed(appId)).map((listedVersion: { publishedBy: string }) => listedVersion.publishedBy)).toEqual(['bob']);
    expect(a.forgotten).toEqual([]);
  });

  it('a publish whose patch lost to one that took the number keeps its row, so a version stands even when the winner stops before settling', async () => {
    const { writer } = dataDeps(platform.context);
    const appId = await application();
    const aClaimed = gate();
    const aMayPatch = gate();
    const aPatched = gate();
    // A's patch lands but its answer never comes back (a dropped connection): A cannot settle.
    const a = publisherWith(
      claimThenPatch(
        {
          patch: async (...args) => {
            await writer.patch(...args).finally(aPatched.open);
            throw new Error('connection reset');
          },
        },
        async () => {
          aClaimed.open();
          await aMayPatch.opened;
        },
      ),
      Date.now,
    );
    const b = publisherWith(
      claimThenPatch(writer, async () => {
        aMayPatch.open();
        await aPatched.opened;
      }),
      aMinuteLater,
    );

    const publishedByA = a.publisher.publish(projectId, appId, alice);
    await aClaimed.opened;
    await expect(b.publisher.publish(projectId, appId, bob)).rejects.toMatchObject({ statusCode: 409, code: 'PUBLISHING_CONCURRENT_PUBLISH' });
    await expect(publishedByA).rejects.toThrow('connection reset');

    expect(await new ApplicationReader(platform.context.store).live(projectId, appId)).toMatchObject({ publishedVersionNumber: 1, publishedVersionId: `${appId}:1` });
    // B's snapshot of the same revision stands in for A's.
    expect(await row(appId)).toMatchObject({ versionNumber: 1, publishedBy: 'bob', title: { en: 'Shop' }, routes: [{ path: '/' }], serverConfiguration: { k: 1 } });
    expect((await listed(appId)).map((listedVersion: { versionNumber: number }) => listedVersion.versionNumber)).toEqual([1]);
  });
});

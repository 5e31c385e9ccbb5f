import { dataService } from '@platform/data';
import { dataDeps } from '@platform/documents';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationReader } from '../stores/applications';
import { VersionStore, versionsCollection } from '../stores/versions';
import { Publisher } from './publisher';

let platform: TestGateway;
let projectId: string;
const owner = { userId: 'owner', superuser: true, permissions: new Set<string>() };

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  projectId = await platform.seedProject({ ownerId: 'owner' });
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

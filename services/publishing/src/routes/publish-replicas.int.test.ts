import { randomUUID } from 'node:crypto';
import { dataService } from '@platform/data';
import { dataDeps, type DataDeps } from '@platform/documents';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import type { DocumentStore } from '@platform/storage';
import { temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishingService } from '../app';
import { Publisher } from '../publish/publisher';
import { ApplicationReader } from '../stores/applications';
import { ABANDONED_AFTER_MS, VersionStore, versionsCollection } from '../stores/versions';
import { gate } from '../testing/gate';

type ApplicationWriter = Pick<DataDeps['writer'], 'patch'>;

/** `writer` with `between` run after the patch's preceding writes (the version claim), before the patch itself. */
function pausedAfterClaim(writer: ApplicationWriter, between: () => Promise<void>): ApplicationWriter {
  return {
    patch: (scope, id, modifier, options) =>
      writer.patch(scope, id, modifier, {
        ...options,
        preceding: async (section) => {
          await options.preceding?.(section);
          await between();
        },
      }),
  };
}

/**
 * Two replicas of data and publishing on one MongoDB: concurrent publishes through both still
 * give one version per number, and a hostname still goes to one project only.
 */
describeWithBackend('mongo', 'publishing with two replicas on MongoDB', ({ url }) => {
  let temporary: TemporaryStore | undefined;
  let store: DocumentStore;
  const replicas: TestGateway[] = [];
  const tokens: string[] = [];
  const projects: string[] = [];

  beforeAll(async () => {
    temporary = await temporaryMongoStore(url, 'publishing');
    store = temporary.store;
    for (let i = 0; i < 2; i += 1) replicas.push(await startTestGateway({ services: [dataService, publishingService], store }));
    for (const replica of replicas) tokens.push(await replica.signIn('owner'));
    for (let i = 0; i < 4; i += 1) projects.push(await replicas[0]!.seedProject({ ownerId: 'owner' }));
  });

  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await temporary?.dispose();
  });

  it('20 concurrent publishes across replicas: contiguous numbers, no duplicates, losers 409 and no rows left', async () => {
    const projectId = projects[0]!;
    const created = await replicas[0]!.call('POST', `/api/projects/${projectId}/applications`, { token: tokens[0], body: { title: { en: 'Shop' }, serverConfiguration: { k: 1 } } });
    const appId = created.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.call('POST', `/api/projects/${projectId}/applications/${appId}/publish`, { token: tokens[i % 2] })),
    );
    const won = answers.filter((a) => a.status === 201).map((a) => a.body.versionNumber as number);
    for (const answer of answers.filter((a) => a.status !== 201)) expect(answer.status).toBe(409);
    expect(won.sort((a, b) => a - b)).toEqual(Array.from({ length: won.length }, (_, i) => i + 1));
    expect(await store.collection(versionsCollection(projectId)).count({ applicationId: appId })).toBe(won.length);
    const listed = await replicas[1]!.call('GET', `/api/projects/${projectId}/applications/${appId}/versions`, { token: tokens[1] });
    expect(listed.body.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([...won].reverse());
  });

  it('a publish that stalls past ABANDONED_AFTER_MS between its claim and its patch keeps the version its patch took, though a later publish replaced its row meanwhile', async () => {
    const projectId = projects[1]!;
    const created = await replicas[0]!.call('POST', `/api/projects/${projectId}/applications`, { token: tokens[0], body: { title: { en: 'Shop' }, serverConfiguration: { k: 1 } } });
    const appId = created.body.id as string;
    const aClaimed = gate();
    const aMayPatch = gate();
    const aPatched = gate();
    const { writer: writerA } = dataDeps(replicas[0]!.context);
    const { writer: writerB } = dataDeps(replicas[1]!.context);
    const stalling = pausedAfterClaim({ patch: (...args) => writerA.patch(...args).finally(aPatched.open) }, async () => {
      aClaimed.open();
      await aMayPatch.opened;
    });
    // B, a minute later, replaces A's row as abandoned, then lets A's patch land before its own.
    const yielding = pausedAfterClaim(writerB, async () => {
      aMayPatch.open();
      await aPatched.opened;
    });
    const publisher = (writer: ApplicationWriter, clock: () => number) => new Publisher(new ApplicationReader(store), new VersionStore(store), writer, clock, () => {});
    const caller = (userId: string) => ({ userId, superuser: true, permissions: new Set<string>() });

    const publishedByA = publisher(stalling, Date.now).publish(projectId, appId, caller('alice'));
    await aClaimed.opened;
    await expect(publisher(yielding, () => Date.now() + ABANDONED_AFTER_MS + 1_000).publish(projectId, appId, caller('bob'))).rejects.toMatchObject({ statusCode: 409, code: 'PUBLISHING_CONCURRENT_PUBLISH' });
    const version = await publishedByA;

    expect(await new VersionStore(store).find(projectId, `${appId}:1`)).toEqual({ ...version, _settled: true });
    const listed = await replicas[1]!.call('GET', `/api/projects/${projectId}/applications/${appId}/versions`, { token: tokens[1] });
    expect(listed.body).toEqual([{ id: `${appId}:1`, applicationId: appId, versionNumber: 1, publishedBy: 'alice', title: { en: 'Shop' }, createdAt: version.createdAt }]);
  });

  it('the same hostname registered concurrently by four projects through both replicas: one wins, the rest 409', async () => {
    const hostname = `race-${randomUUID().slice(0, 8)}.example.com`;
    const answers = await Promise.all(projects.map((projectId, i) => replicas[i % 2]!.call('POST', `/api/projects/${projectId}/domains`, { token: tokens[i % 2], body: { hostname } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await store.collection('project-domains').count({ hostname })).toBe(1);
  });
});

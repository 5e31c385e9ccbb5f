import { randomUUID } from 'node:crypto';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import type { DocumentStore } from '@platform/storage';
import { temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishingService } from '../app';
import { versionsCollection } from '../stores/versions';

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

  it('the same hostname registered concurrently by four projects through both replicas: one wins, the rest 409', async () => {
    const hostname = `race-${randomUUID().slice(0, 8)}.example.com`;
    const answers = await Promise.all(projects.map((projectId, i) => replicas[i % 2]!.call('POST', `/api/projects/${projectId}/domains`, { token: tokens[i % 2], body: { hostname } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await store.collection('project-domains').count({ hostname })).toBe(1);
  });
});

import { randomBytes } from 'node:crypto';
import { DOMAIN_CHANGES_FILTER, type DomainChange } from '@platform/contracts';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway, type TestResponse } from '@platform/gateway/testing';
import type { Subscription } from '@platform/bus';
import { temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createPublishingService } from '../app';
import { FakeDns } from '../testing/fake-dns';

/**
 * Concurrent changes of one domain on MongoDB (the embedded store runs one request's reads and
 * write without another's in between, so it cannot show these). Each change is checked against the
 * domain as it was read and written only if the domain is still that: no assignment leaves a pin
 * of another application, and the audit trail's items follow each other (every item's "before" is
 * the previous item's "after", one item per revision).
 */
describeWithBackend('mongo', 'concurrent domain changes on MongoDB', ({ url }) => {
  let temporary: TemporaryStore | undefined;
  let platform: TestGateway;
  let owner: string;
  let projectId: string;
  let subscription: Subscription | undefined;
  const dns = new FakeDns();
  const changes: DomainChange[] = [];

  beforeAll(async () => {
    temporary = await temporaryMongoStore(url, 'publishing-races');
    platform = await startTestGateway({ services: [dataService, createPublishingService({ resolveTxt: dns.resolveTxt })], store: temporary.store });
    owner = await platform.signIn('owner');
    projectId = await platform.seedProject({ ownerId: 'owner' });
    subscription = await platform.context.bus.subscribe<DomainChange>({
      durable: 'test-domain-races',
      filter: DOMAIN_CHANGES_FILTER,
      handler: async (message) => {
        changes.push(message.data);
      },
    });
  });

  afterAll(async () => {
    await subscription?.stop();
    await platform?.close();
    await temporary?.dispose();
  });

  const hostname = () => `race-${randomBytes(4).toString('hex')}.example.com`;
  const p = () => `/api/projects/${projectId}`;

  async function publishedApplication(): Promise<{ appId: string; versionId: string }> {
    const created = await platform.call('POST', `${p()}/applications`, { token: owner, body: { title: { en: 'Shop' }, routes: [{ path: '/' }] } });
    const published = await platform.call('POST', `${p()}/applications/${created.body.id}/publish`, { token: owner });
    expect(published.status).toBe(201);
    return { appId: created.body.id, versionId: published.body.id };
  }

  async function verifiedDomain(body: Record<string, unknown>): Promise<{ id: string; hostname: string }> {
    const created = await platform.call('POST', `${p()}/domains`, { token: owner, body });
    expect(created.status).toBe(201);
    dns.publish(created.body.verification.record.name, created.body.verification.record.value);
    expect((await platform.call('POST', `${p()}/domains/${created.body.id}/verify`, { token: owner })).body.status).toBe('verified');
    return created.body;
  }

  const assign = (domainId: string, body: Record<string, unknown>) => platform.call('POST', `${p()}/domains/${domainId}/assign`, { token: owner, body: { targetType: 'application', ...body } });

  /** The domain's audit messages by revision, once the one of `revision` arrived. */
  async function changesOf(domainId: string, revision: number): Promise<DomainChange[]> {
    let mine: DomainChange[] = [];
    await vi.waitFor(
      () => {
        mine = changes.filter((change) => change.domainId === domainId).sort((a, b) => a.revision - b.revision);
        expect(mine.map((change) => change.revision)).toContain(revision);
      },
      { timeout: 3_000 },
    );
    return mine;
  }

  /** Each item follows the one before it: one per revision, and its "before" is that item's "after". */
  function expectChained(items: DomainChange[]): void {
    expect(items.map((item) => item.revision)).toEqual(items.map((_, i) => i));
    for (let i = 1; i < items.length; i += 1) {
      const [previous, item] = [items[i - 1]!, items[i]!];
      if (item.change === 'renamed') expect(item.previousHostname, `revision ${item.revision}`).toBe(previous.hostname);
      else expect(item.hostname, `revision ${item.revision}`).toBe(previous.hostname);
      if (item.change === 'assigned') expect(item.previousTarget, `revision ${item.revision}`).toEqual(previous.target);
      else expect(item.target, `revision ${item.revision}`).toEqual(previous.target);
    }
  }

  it('assigns racing a pin of another application never leave the domain pinned to it; the site keeps resolving', async () => {
    const x = await publishedApplication();
    const y = await publishedApplication();
    for (let round = 0; round < 8; round += 1) {
      const name = hostname();
      const domain = await verifiedDomain({ hostname: name, targetType: 'application', targetId: y.appId, targetVersionId: y.versionId });
      const keepPin = () => assign(domain.id, { targetId: y.appId });
      const answers = await Promise.all([keepPin(), keepPin(), keepPin(), assign(domain.id, { targetId: x.appId, targetVersionId: x.versionId }), keepPin(), keepPin(), keepPin()]);

      const stored = (await platform.call('GET', `${p()}/domains/${domain.id}`, { token: owner })).body;
      const consistent = (body: { targetId?: string; targetVersionId?: string }) => body.targetVersionId === undefined || body.targetVersionId.startsWith(`${body.targetId}:`);
      expect(consistent(stored), `round ${round}: stored ${stored.targetId} pinned to ${stored.targetVersionId}`).toBe(true);
      for (const answer of answers as TestResponse[]) {
        // After the pin to X, keeping the pin while pointing at Y is refused; a refusal names the field.
        if (answer.status !== 200) expect(answer.body).toMatchObject({ code: 'PUBLISHING_INVALID_TARGET', details: { field: 'targetVersionId' } });
        else expect(consistent(answer.body), `round ${round}: answered ${answer.body.targetId} pinned to ${answer.body.targetVersionId}`).toBe(true);
      }
      expect(answers[3]!.status).toBe(200);
      expect((await platform.call('GET', `/api/public/domains/${name}`)).status, `round ${round}`).toBe(200);
      // Each assignment that changed something is one audit item, after the one it replaced.
      expectChained(await changesOf(domain.id, Math.max(...answers.map((a) => (a.status === 200 ? (a.body.revision as number) : 0)))));
    }
  });

  it('renames, assigns and a removal racing each other: each answer and audit item tells what it replaced, none is lost', async () => {
    const x = await publishedApplication();
    const y = await publishedApplication();
    for (let round = 0; round < 8; round += 1) {
      const domain = await verifiedDomain({ hostname: hostname(), targetType: 'application', targetId: y.appId });
      const rename = () => platform.call('PATCH', `${p()}/domains/${domain.id}`, { token: owner, body: { hostname: hostname() } });
      const answers = await Promise.all([rename(), assign(domain.id, { targetId: x.appId, targetVersionId: null }), rename(), assign(domain.id, { targetId: y.appId, targetVersionId: y.versionId }), rename()]);
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const removed = await Promise.all([platform.call('DELETE', `${p()}/domains/${domain.id}`, { token: owner }), assign(domain.id, { targetId: x.appId, targetVersionId: null })]);
      expect(removed[0]!.status).toBe(200);
      if (removed[1]!.status !== 200) expect(removed[1]!.body.code).toBe('PUBLISHING_DOMAIN_NOT_FOUND');

      const items = await changesOf(domain.id, (removed[0]!.body.revision as number) + 1);
      expectChained(items);
      const last = items.at(-1)!;
      expect(last.change).toBe('removed');
      // The removal answers the domain it removed: the state of the last change before it.
      expect(removed[0]!.body).toMatchObject({ hostname: last.hostname, revision: last.revision - 1 });
    }
  });
});

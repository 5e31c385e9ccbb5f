import { randomBytes } from 'node:crypto';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway, type TestResponse } from '@platform/gateway/testing';
import { wrappedCollections, type Collection, type DocumentStore, type StoredDocument } from '@platform/storage';
import { temporaryEmbeddedStore, type TemporaryStore } from '@platform/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishingService } from '../app';
import { DOMAINS_COLLECTION } from '../stores/domains';
import { FakeDns } from '../testing/fake-dns';

/**
 * A pending claim does not hold a hostname against the one who controls its DNS: another project
 * that publishes the takeover record the 409 names takes the hostname, verified at once.
 */
let platform: TestGateway;
let temporary: TemporaryStore;
const dns = new FakeDns();
/** Runs once, right after the next removal of domains (a takeover's, before the taker writes), before that removal answers. */
let afterNextDomainRemoval: (() => Promise<void>) | undefined;

/** `store` with its removals of domains watched for `afterNextDomainRemoval`. */
function watchingRemovals(store: DocumentStore): DocumentStore {
  const watching = Object.create(store) as DocumentStore;
  watching.collection = wrappedCollections(store, (collection: Collection<StoredDocument>) =>
    Object.assign(Object.create(collection) as Collection<StoredDocument>, {
      deleteMany: async (...args: Parameters<Collection<StoredDocument>['deleteMany']>) => {
        const removed = await collection.deleteMany(...args);
        const meanwhile = afterNextDomainRemoval;
        if (meanwhile && removed > 0 && collection.name === DOMAINS_COLLECTION) {
          afterNextDomainRemoval = undefined;
          await meanwhile();
        }
        return removed;
      },
    }),
  );
  return watching;
}
/** The squatter claims hostnames it does not control; the owner controls their DNS; a third project also wants them. */
let squatter: { project: string; token: string };
let owner: { project: string; token: string };
let third: { project: string; token: string };

beforeAll(async () => {
  temporary = await temporaryEmbeddedStore('hostname-takeover');
  platform = await startTestGateway({ services: [dataService, createPublishingService({ resolveTxt: dns.resolveTxt })], store: watchingRemovals(temporary.store) });
  const member = async (userId: string) => ({ token: await platform.signIn(userId), project: await platform.seedProject({ ownerId: userId }) });
  squatter = await member('squatter');
  owner = await member('owner');
  third = await member('third');
});

afterAll(async () => {
  await platform?.close();
  await temporary?.dispose();
});

const hostname = () => `shop-${randomBytes(4).toString('hex')}.victim.com`;

interface TxtRecord {
  type: string;
  name: string;
  value: string;
}

interface DomainBody {
  id: string;
  hostname: string;
  status: string;
  verifiedAt?: number;
  verification?: { record: TxtRecord };
}

type Caller = typeof owner;

function claim(as: Caller, body: { hostname: string; targetId?: string }): Promise<TestResponse<DomainBody>> {
  return platform.call('POST', `/api/projects/${as.project}/domains`, { token: as.token, body });
}

function rename(as: Caller, domainId: string, name: string): Promise<TestResponse<DomainBody>> {
  return platform.call('PATCH', `/api/projects/${as.project}/domains/${domainId}`, { token: as.token, body: { hostname: name } });
}

function read(as: Caller, domainId: string): Promise<TestResponse<DomainBody>> {
  return platform.call('GET', `/api/projects/${as.project}/domains/${domainId}`, { token: as.token });
}

async function squatted(name: string): Promise<DomainBody> {
  const claimed = await claim(squatter, { hostname: name });
  expect(claimed.status).toBe(201);
  return claimed.body;
}

/** The record a 409 asks the caller to publish to take the hostname over. */
function takeoverRecord(refused: TestResponse): TxtRecord {
  expect(refused).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN', details: { record: expect.any(Object) } } });
  return (refused.body as { details: { record: TxtRecord } }).details.record;
}

function publish(record: TxtRecord): void {
  dns.publish(record.name, record.value);
}

async function publishedApplication(as: Caller): Promise<string> {
  const app = await platform.call('POST', `/api/projects/${as.project}/applications`, { token: as.token, body: { title: { en: 'Shop' }, routes: [{ path: '/' }] } });
  expect((await platform.call('POST', `/api/projects/${as.project}/applications/${app.body.id}/publish`, { token: as.token })).status).toBe(201);
  return app.body.id;
}

describe('taking a hostname from another project’s unverified claim by DNS', () => {
  it('the owner gets 409 naming the record, publishes it, sends again and gets the hostname verified; the squatter keeps nothing', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    const targetId = await publishedApplication(owner);

    const refused: TestResponse = await claim(owner, { hostname: name, targetId });
    const record = takeoverRecord(refused);
    expect(record).toEqual({ type: 'TXT', name: `_platform-verify.${name}`, value: expect.stringMatching(/^platform-verify=[0-9a-f]{32}$/) });
    expect(record.value).not.toBe(squatterDomain.verification!.record.value);
    expect(refused.body.error).toContain('another project');
    expect(refused.body.error).toContain(record.value);
    // Stable: asking again names the same record, so the owner can publish it and retry.
    expect(takeoverRecord(await claim(owner, { hostname: name, targetId }))).toEqual(record);

    publish(record);
    const taken = await claim(owner, { hostname: name, targetId });
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ hostname: name, status: 'verified', verifiedAt: expect.any(Number) });
    expect(taken.body).not.toHaveProperty('verification');
    expect((await read(owner, taken.body.id)).body.status).toBe('verified');
    expect(await platform.call('GET', `/api/public/domains/${name}`)).toMatchObject({ status: 200, body: { projectId: owner.project, applicationId: targetId } });

    expect(await read(squatter, squatterDomain.id)).toMatchObject({ status: 404, body: { code: 'PUBLISHING_DOMAIN_NOT_FOUND' } });
    expect((await platform.call('GET', `/api/projects/${squatter.project}/domains`, { token: squatter.token })).body).toEqual([]);
    // Now verified, it is the squatter's turn to be refused, with no record to take it back.
    const back = await claim(squatter, { hostname: name });
    expect(back).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN' } });
    expect(back.body).not.toHaveProperty('details');
  });

  it('a rename takes the hostname the same way', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    const mine = await claim(owner, { hostname: hostname() });
    const record = takeoverRecord(await rename(owner, mine.body.id, name));
    publish(record);
    const renamed = await rename(owner, mine.body.id, name);
    expect(renamed).toMatchObject({ status: 200, body: { id: mine.body.id, hostname: name, status: 'verified', verifiedAt: expect.any(Number) } });
    expect(renamed.body).not.toHaveProperty('verification');
    expect((await read(squatter, squatterDomain.id)).status).toBe(404);
  });

  it('without the record nothing changes: neither with another project’s record, nor the squatter’s own', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    publish(squatterDomain.verification!.record);
    publish(takeoverRecord(await claim(third, { hostname: name })));

    const refused = await claim(owner, { hostname: name });
    expect(takeoverRecord(refused).name).toBe(`_platform-verify.${name}`);
    expect((await read(squatter, squatterDomain.id)).body).toEqual(squatterDomain);
    expect((await platform.call('GET', `/api/projects/${owner.project}/domains`, { token: owner.token })).body.map((domain: DomainBody) => domain.hostname)).not.toContain(name);
  });

  it('a failed DNS lookup answers 503 and changes nothing', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    dns.fail(`_platform-verify.${name}`);
    expect(await claim(owner, { hostname: name })).toMatchObject({ status: 503, body: { code: 'PUBLISHING_VERIFICATION_UNAVAILABLE' } });
    expect((await read(squatter, squatterDomain.id)).body).toEqual(squatterDomain);
  });

  it('a verified domain is never taken, nor a claim of the caller’s own project: 409 offering no record', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    // The owner's record is published, then the squatter verifies after all (it did control the DNS).
    publish(takeoverRecord(await claim(owner, { hostname: name })));
    publish(squatterDomain.verification!.record);
    expect((await platform.call('POST', `/api/projects/${squatter.project}/domains/${squatterDomain.id}/verify`, { token: squatter.token })).body.status).toBe('verified');

    const refused = await claim(owner, { hostname: name });
    expect(refused).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN' } });
    expect(refused.body).not.toHaveProperty('details');
    expect((await read(squatter, squatterDomain.id)).body.status).toBe('verified');

    const ownPending = hostname();
    const first = await claim(owner, { hostname: ownPending });
    const again = await claim(owner, { hostname: ownPending });
    expect(again).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN' } });
    expect(again.body).not.toHaveProperty('details');
    expect((await read(owner, first.body.id)).body.status).toBe('pending');
  });

  it('concurrent takeovers with their records published: exactly one wins', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    publish(takeoverRecord(await claim(owner, { hostname: name })));
    publish(takeoverRecord(await claim(third, { hostname: name })));

    // Every request reads the squatter's claim before any of them removes it.
    dns.holdLookups(3);
    const answers = await Promise.all([claim(owner, { hostname: name }), claim(third, { hostname: name }), claim(owner, { hostname: name })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    const stored = await platform.context.store.collection('project-domains').find({ hostname: name });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: answers.find((answer) => answer.status === 201)!.body.id, verifiedAt: expect.any(Number) });
    expect(stored[0]).not.toHaveProperty('verificationToken');
    expect((await read(squatter, squatterDomain.id)).status).toBe(404);
  });

  it('a rename whose domain changes between the proof and the write still ends verified: the retry keeps the proof', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    const mine = await claim(owner, { hostname: hostname() });
    publish(takeoverRecord(await rename(owner, mine.body.id, name)));
    // While the record is looked up, another request of the project renames the domain elsewhere: the takeover's write misses and is decided again.
    dns.onNextLookup(async () => {
      expect((await rename(owner, mine.body.id, hostname())).body.status).toBe('pending');
    });

    const renamed = await rename(owner, mine.body.id, name);
    expect(renamed).toMatchObject({ status: 200, body: { id: mine.body.id, hostname: name, status: 'verified', verifiedAt: expect.any(Number) } });
    expect(renamed.body).not.toHaveProperty('verification');
    expect((await read(owner, mine.body.id)).body).toMatchObject({ hostname: name, status: 'verified' });
    expect((await read(squatter, squatterDomain.id)).status).toBe(404);
  });

  it('a claim made on the hostname the takeover freed, before the taker writes, is taken too: the taker ends verified', async () => {
    const name = hostname();
    const squatterDomain = await squatted(name);
    publish(takeoverRecord(await claim(owner, { hostname: name })));
    let between: TestResponse<DomainBody> | undefined;
    afterNextDomainRemoval = async () => {
      between = await claim(third, { hostname: name });
    };

    const taken = await claim(owner, { hostname: name });
    expect(between).toMatchObject({ status: 201, body: { hostname: name, status: 'pending' } });
    expect(taken).toMatchObject({ status: 201, body: { hostname: name, status: 'verified', verifiedAt: expect.any(Number) } });
    expect((await read(third, between!.body.id)).status).toBe(404);
    expect((await read(squatter, squatterDomain.id)).status).toBe(404);
    const stored = await platform.context.store.collection(DOMAINS_COLLECTION).find({ hostname: name });
    expect(stored).toMatchObject([{ id: taken.body.id, projectId: owner.project, verifiedAt: expect.any(Number) }]);
  });

  it('a domain verified on the freed hostname before the taker writes keeps it: the taker gets 409', async () => {
    const name = hostname();
    await squatted(name);
    publish(takeoverRecord(await claim(owner, { hostname: name })));
    let between: TestResponse<DomainBody> | undefined;
    afterNextDomainRemoval = async () => {
      between = await claim(third, { hostname: name });
      publish(between.body.verification!.record);
      expect((await platform.call('POST', `/api/projects/${third.project}/domains/${between.body.id}/verify`, { token: third.token })).body.status).toBe('verified');
    };

    const refused = await claim(owner, { hostname: name });
    expect(refused).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN' } });
    expect(refused.body).not.toHaveProperty('details');
    expect((await read(third, between!.body.id)).body).toMatchObject({ hostname: name, status: 'verified' });
  });
});

import { randomBytes } from 'node:crypto';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway, type TestResponse } from '@platform/gateway/testing';
import { ConfigError } from '@platform/kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPublishingService } from '../app';
import { FakeDns } from '../testing/fake-dns';

const HOUR_MS = 3_600_000;
/** The default claim lifetime (PUBLISHING_DOMAIN_CLAIM_TTL_HOURS=72). */
const CLAIM_TTL_MS = 72 * HOUR_MS;

let platform: TestGateway;
let clockOffset = 0;
const dns = new FakeDns();
let projectA: string;
let projectB: string;
let ownerA: string;
let ownerB: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService, createPublishingService({ resolveTxt: dns.resolveTxt })], clock: () => Date.now() + clockOffset });
  ownerA = await platform.signIn('owner-a');
  ownerB = await platform.signIn('owner-b');
  projectA = await platform.seedProject({ ownerId: 'owner-a' });
  projectB = await platform.seedProject({ ownerId: 'owner-b' });
});

afterEach(() => {
  clockOffset = 0;
});

afterAll(async () => {
  await platform?.close();
});

const hostname = () => `site-${randomBytes(4).toString('hex')}.example.net`;

interface DomainBody {
  id: string;
  hostname: string;
  status: string;
  revision: number;
  verification?: { record: { name: string; value: string }; expiresAt: number };
}

async function claim(project: string, token: string, body: Record<string, unknown>): Promise<TestResponse<DomainBody>> {
  return platform.call('POST', `/api/projects/${project}/domains`, { token, body });
}

function verify(project: string, token: string, domainId: string): Promise<TestResponse> {
  return platform.call('POST', `/api/projects/${project}/domains/${domainId}/verify`, { token });
}

function read(project: string, token: string, domainId: string): Promise<TestResponse<DomainBody>> {
  return platform.call('GET', `/api/projects/${project}/domains/${domainId}`, { token });
}

/** Publishes the record the domain asks for, as the hostname's real owner would. */
function publishRecord(domain: DomainBody): void {
  dns.publish(domain.verification!.record.name, domain.verification!.record.value);
}

/** A published application of project A and a domain of A targeting it. */
async function publishedTarget(name: string): Promise<DomainBody> {
  const app = await platform.call('POST', `/api/projects/${projectA}/applications`, { token: ownerA, body: { title: { en: 'Site' }, routes: [{ path: '/' }] } });
  expect((await platform.call('POST', `/api/projects/${projectA}/applications/${app.body.id}/publish`, { token: ownerA })).status).toBe(201);
  const created = await claim(projectA, ownerA, { hostname: name, targetType: 'application', targetId: app.body.id });
  expect(created.status).toBe(201);
  return created.body;
}

describe('verification by DNS TXT record', () => {
  it('a new domain is pending and does not resolve; the TXT record verifies it and then it resolves', async () => {
    const name = hostname();
    const domain = await publishedTarget(name);
    expect(domain).toMatchObject({ status: 'pending', verification: { method: 'dns-txt', record: { type: 'TXT', name: `_platform-verify.${name}` } } });
    expect(await platform.call('GET', `/api/public/domains/${name}`)).toMatchObject({ status: 404, body: { code: 'PUBLISHING_DOMAIN_NOT_FOUND' } });

    publishRecord(domain);
    const verified = await verify(projectA, ownerA, domain.id);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'verified', verifiedAt: expect.any(Number), revision: domain.revision + 1 });
    expect(verified.body).not.toHaveProperty('verification');
    expect(await platform.call('GET', `/api/public/domains/${name}`)).toMatchObject({ status: 200, body: { hostname: name, projectId: projectA } });

    // Verifying again answers the domain as it is, without a lookup or a change.
    expect(await verify(projectA, ownerA, domain.id)).toMatchObject({ status: 200, body: { status: 'verified', revision: verified.body.revision } });
  });

  it.each([
    { label: 'no record at all', publish: (_domain: DomainBody) => undefined, says: 'No TXT record' },
    { label: 'a record with another token', publish: (domain: DomainBody) => dns.publish(domain.verification!.record.name, `platform-verify=${'0'.repeat(32)}`), says: 'do not hold' },
    { label: 'the token at the hostname itself', publish: (domain: DomainBody) => dns.publish(domain.hostname, domain.verification!.record.value), says: 'No TXT record' },
  ])('refuses $label with 400 naming the record, changing nothing', async (row) => {
    const domain = await publishedTarget(hostname());
    row.publish(domain);
    const refused = await verify(projectA, ownerA, domain.id);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'PUBLISHING_VERIFICATION_FAILED', details: { record: domain.verification!.record } });
    expect(refused.body.error).toContain(row.says);
    expect(refused.body.error).toContain(domain.verification!.record.name);
    expect((await read(projectA, ownerA, domain.id)).body).toEqual(domain);
    expect((await platform.call('GET', `/api/public/domains/${domain.hostname}`)).status).toBe(404);
  });

  it('answers 503 when the DNS lookup fails, changing nothing', async () => {
    const domain = await publishedTarget(hostname());
    dns.fail(domain.verification!.record.name);
    const failed = await verify(projectA, ownerA, domain.id);
    expect(failed).toMatchObject({ status: 503, body: { code: 'PUBLISHING_VERIFICATION_UNAVAILABLE' } });
    expect(failed.body.error).toContain(domain.verification!.record.name);
    expect((await read(projectA, ownerA, domain.id)).body).toEqual(domain);
  });

  it('a rename starts a new pending claim with a new token: the old record proves nothing and resolution stops', async () => {
    const domain = await publishedTarget(hostname());
    publishRecord(domain);
    expect((await verify(projectA, ownerA, domain.id)).status).toBe(200);
    const renamedTo = hostname();
    const renamed = await platform.call('PATCH', `/api/projects/${projectA}/domains/${domain.id}`, { token: ownerA, body: { hostname: renamedTo } });
    expect(renamed.body).toMatchObject({ hostname: renamedTo, status: 'pending' });
    expect(renamed.body).not.toHaveProperty('verifiedAt');
    expect(renamed.body.verification.record.value).not.toBe(domain.verification!.record.value);
    expect((await platform.call('GET', `/api/public/domains/${renamedTo}`)).status).toBe(404);
    expect((await verify(projectA, ownerA, domain.id)).status).toBe(400);
  });

  it('a rename while the record is being checked: 409, the renamed domain stays pending', async () => {
    const domain = await publishedTarget(hostname());
    publishRecord(domain);
    const renamedTo = hostname();
    dns.onNextLookup(async () => {
      const renamed = await platform.call('PATCH', `/api/projects/${projectA}/domains/${domain.id}`, { token: ownerA, body: { hostname: renamedTo } });
      expect(renamed.status).toBe(200);
    });
    expect(await verify(projectA, ownerA, domain.id)).toMatchObject({ status: 409, body: { code: 'PUBLISHING_DOMAIN_CHANGED' } });
    expect((await read(projectA, ownerA, domain.id)).body).toMatchObject({ hostname: renamedTo, status: 'pending' });
    expect((await platform.call('GET', `/api/public/domains/${renamedTo}`)).status).toBe(404);
  });

  it('two verifications at once both answer the verified domain', async () => {
    const domain = await publishedTarget(hostname());
    publishRecord(domain);
    dns.onNextLookup(async () => {
      expect((await verify(projectA, ownerA, domain.id)).body.status).toBe('verified');
    });
    expect(await verify(projectA, ownerA, domain.id)).toMatchObject({ status: 200, body: { status: 'verified', revision: domain.revision + 1 } });
  });
});

describe('squatting across projects', () => {
  it('a pending claim blocks other projects until it expires; then another project may claim the hostname', async () => {
    const name = hostname();
    const first = await claim(projectA, ownerA, { hostname: name });
    expect(first.status).toBe(201);

    clockOffset = CLAIM_TTL_MS - 1_000;
    expect(await claim(projectB, ownerB, { hostname: name })).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN' } });
    expect((await read(projectA, ownerA, first.body.id)).body.status).toBe('pending');

    clockOffset = CLAIM_TTL_MS + 1_000;
    expect((await read(projectA, ownerA, first.body.id)).body.status).toBe('expired');
    const second = await claim(projectB, ownerB, { hostname: name });
    expect(second.status).toBe(201);
    expect(second.body.status).toBe('pending');
    expect(second.body.verification!.record.value).not.toBe(first.body.verification!.record.value);
    // The expired claim gave the hostname up: project A's domain is gone, and A's record does not verify B.
    expect((await read(projectA, ownerA, first.body.id)).status).toBe(404);
    publishRecord(first.body);
    expect((await verify(projectB, ownerB, second.body.id)).status).toBe(400);
    expect((await claim(projectA, ownerA, { hostname: name })).status).toBe(409);
  });

  it('a rename onto an expired claim of another project takes the hostname; onto a pending one is 409', async () => {
    const held = hostname();
    await claim(projectA, ownerA, { hostname: held });
    const mine = await claim(projectB, ownerB, { hostname: hostname() });
    const rename = () => platform.call('PATCH', `/api/projects/${projectB}/domains/${mine.body.id}`, { token: ownerB, body: { hostname: held } });
    expect((await rename()).status).toBe(409);
    clockOffset = CLAIM_TTL_MS + 1_000;
    expect(await rename()).toMatchObject({ status: 200, body: { hostname: held, status: 'pending' } });
  });

  it('a verified domain of another project answers 409, long after any claim would have expired', async () => {
    const domain = await publishedTarget(hostname());
    publishRecord(domain);
    expect((await verify(projectA, ownerA, domain.id)).status).toBe(200);
    clockOffset = 5 * CLAIM_TTL_MS;
    expect(await claim(projectB, ownerB, { hostname: domain.hostname })).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN' } });
    expect((await platform.call('GET', `/api/public/domains/${domain.hostname}`)).body.projectId).toBe(projectA);
  });

  it('an expired claim nobody took can still be verified by its owner', async () => {
    const domain = await publishedTarget(hostname());
    clockOffset = CLAIM_TTL_MS + 1_000;
    publishRecord(domain);
    expect(await verify(projectA, ownerA, domain.id)).toMatchObject({ status: 200, body: { status: 'verified' } });
    expect((await claim(projectB, ownerB, { hostname: domain.hostname })).status).toBe(409);
  });

  it('concurrent claims of a hostname whose claim expired: exactly one project wins', async () => {
    const name = hostname();
    await claim(projectA, ownerA, { hostname: name });
    clockOffset = CLAIM_TTL_MS + 1_000;
    const answers = await Promise.all([claim(projectB, ownerB, { hostname: name }), claim(projectB, ownerB, { hostname: name }), claim(projectA, ownerA, { hostname: name })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(await platform.context.store.collection('project-domains').count({ hostname: name })).toBe(1);
  });
});

describe('domains stored before verification existed', () => {
  it('count as verified: they keep resolving', async () => {
    const name = hostname();
    const domain = await publishedTarget(name);
    // A row as stored before this change: no claim fields at all.
    await platform.context.store.collection('project-domains').updateOne({ id: domain.id }, { $unset: { verificationToken: '', verificationExpiresAt: '' } });
    expect((await read(projectA, ownerA, domain.id)).body).toMatchObject({ status: 'verified' });
    expect((await platform.call('GET', `/api/public/domains/${name}`)).status).toBe(200);
  });
});

describe('PUBLISHING_DOMAIN_VERIFICATION=off', () => {
  it('verifies without a lookup in development', async () => {
    const development = await startTestGateway({ services: [dataService, createPublishingService({ config: { domainVerification: 'off' } })] });
    try {
      const token = await development.signIn('dev');
      const project = await development.seedProject({ ownerId: 'dev' });
      const created = await development.call('POST', `/api/projects/${project}/domains`, { token, body: { hostname: hostname() } });
      expect(created.body.status).toBe('pending');
      expect(await development.call('POST', `/api/projects/${project}/domains/${created.body.id}/verify`, { token })).toMatchObject({ status: 200, body: { status: 'verified' } });
    } finally {
      await development.close();
    }
  });

  it('refuses to start in production', async () => {
    await expect(startTestGateway({ dev: false, services: [dataService, createPublishingService({ config: { domainVerification: 'off' } })] })).rejects.toThrow(ConfigError);
  });
});

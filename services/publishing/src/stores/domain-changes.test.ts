import type { DomainChange } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { domainChangeMessages } from './domain-changes';
import type { StoredDomain } from './domains';

const domain: StoredDomain = { id: 'd1', projectId: 'p1', hostname: 'shop.example.com', revision: 4, createdAt: 1, updatedAt: 2 };
const versionNumber = async (_projectId: string, versionId: string) => (versionId === 'v3' ? 3 : undefined);
const first = async (...args: Parameters<typeof domainChangeMessages>) => (await domainChangeMessages(...args)).map((message) => message.data as DomainChange)[0];

describe('domainChangeMessages', () => {
  it("publish each change under the project's subject and a message id of the domain's revision (one past it for a removal)", async () => {
    expect(await domainChangeMessages('verified', { after: domain }, 'bea', 9, versionNumber)).toEqual([
      { subject: 'platform.domains.p1.changed', msgId: 'domain-change:p1/d1/4', data: { projectId: 'p1', domainId: 'd1', revision: 4, hostname: 'shop.example.com', change: 'verified', changedBy: 'bea', timestamp: 9 } },
    ]);
    expect((await domainChangeMessages('removed', { after: domain }, 'bea', 9, versionNumber))[0]?.msgId).toBe('domain-change:p1/d1/5');
  });

  it("say where an assignment points and pointed, with a pinned version's number, and find no change in the same target or hostname", async () => {
    const latest = { ...domain, targetType: 'application' as const, targetId: 'app' };
    const pinned = { ...latest, targetVersionId: 'v3', revision: 5 };
    expect(await first('assigned', { after: pinned, before: latest }, 'bea', 9, versionNumber)).toMatchObject({
      target: { applicationId: 'app', versionId: 'v3', versionNumber: 3 },
      previousTarget: { applicationId: 'app', versionId: null },
    });
    expect(await first('assigned', { after: latest, before: domain }, 'bea', 9, versionNumber)).toMatchObject({ target: { applicationId: 'app', versionId: null } });
    expect((await first('assigned', { after: latest, before: domain }, 'bea', 9, versionNumber))?.previousTarget).toBeUndefined();
    // A pin of a version since removed keeps its id, without a number.
    expect((await first('verified', { after: { ...pinned, targetVersionId: 'gone' } }, 'bea', 9, versionNumber))?.target).toEqual({ applicationId: 'app', versionId: 'gone' });
    expect(await domainChangeMessages('assigned', { after: pinned, before: pinned }, 'bea', 9, versionNumber)).toEqual([]);
    expect(await first('renamed', { after: { ...domain, hostname: 'store.example.com' }, before: domain }, 'bea', 9, versionNumber)).toMatchObject({ hostname: 'store.example.com', previousHostname: 'shop.example.com' });
    expect(await domainChangeMessages('renamed', { after: domain, before: domain }, 'bea', 9, versionNumber)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { listView, memberView, nextVersionNumber, publicVersionView, snapshot, versionId } from './versions';

const application = { id: 'app1', revision: 3, title: { en: 'Shop' }, routes: [{ path: '/' }], serverConfiguration: { secret: 's' } };

describe('versions', () => {
  it('numbers from 1, then publishedVersionNumber + 1', () => {
    expect(nextVersionNumber(application)).toBe(1);
    expect(nextVersionNumber({ ...application, publishedVersionNumber: 7 })).toBe(8);
  });

  it('snapshots title, routes and serverConfiguration under the id {appId}:{number}', () => {
    const version = snapshot({ ...application, publishedVersionNumber: 1 }, { publishedBy: 'u1', now: 42, attempt: 'x' });
    expect(version).toEqual({
      id: versionId('app1', 2),
      applicationId: 'app1',
      versionNumber: 2,
      publishedBy: 'u1',
      title: { en: 'Shop' },
      routes: [{ path: '/' }],
      serverConfiguration: { secret: 's' },
      createdAt: 42,
      _attempt: 'x',
    });
    expect(version.id).toBe('app1:2');
  });

  it('fills missing or malformed snapshot fields with empty values', () => {
    expect(snapshot({ id: 'a', revision: 0, title: 'x', routes: {}, serverConfiguration: [] }, { publishedBy: 'u', now: 1, attempt: 'y' })).toMatchObject({ title: {}, routes: [], serverConfiguration: {} });
  });

  it('views: members see everything but _attempt, lists drop heavy fields, the public never sees serverConfiguration', () => {
    const version = snapshot(application, { publishedBy: 'u1', now: 42, attempt: 'x' });
    expect(memberView(version)).not.toHaveProperty('_attempt');
    expect(memberView(version)).toHaveProperty('serverConfiguration');
    expect(Object.keys(listView(version)).sort()).toEqual(['applicationId', 'createdAt', 'id', 'publishedBy', 'title', 'versionNumber']);
    expect(publicVersionView(version)).not.toHaveProperty('serverConfiguration');
    expect(publicVersionView(version)).not.toHaveProperty('publishedBy');
    expect(publicVersionView(version)).not.toHaveProperty('_attempt');
  });
});

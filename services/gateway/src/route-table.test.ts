import { describe, expect, it } from 'vitest';
import { serviceForPath } from './route-table';

describe('central route table', () => {
  it.each([
    ['/api/auth/login', 'identity'],
    ['/api/me/profile', 'identity'],
    ['/api/projects', 'identity'],
    ['/api/projects/p1', 'identity'],
    ['/api/projects/p1/ai-settings', 'identity'],
    ['/api/projects/p1/types/t1/data/d1', 'data'],
    ['/api/projects/p1/types/t1/batch-rls', 'data'],
    ['/api/projects/p1/types.d.ts', 'data'],
    ['/api/schemas/projects/p1/types/t1', 'data'],
    ['/api/projects/p1/applications/a1', 'data'],
    ['/api/projects/p1/applications/a1/publish', 'publishing'],
    ['/api/projects/p1/applications/a1/versions', 'publishing'],
    ['/api/projects/p1/domains/d1/assign', 'publishing'],
    ['/api/projects/p1/audit-trail', 'audit'],
    ['/api/projects/p1/actions/a1', 'actions'],
    ['/api/projects/p1/visitors/v1/events', 'visitors'],
    ['/api/projects/p1/ai-agents/g1/chat', 'data'],
    ['/api/projects/p1/ai-usage', 'data'],
    ['/api/help/chat', 'data'],
  ])('%s goes to %s', (path, service) => {
    expect(serviceForPath(path)).toBe(service);
  });

  it('does not match lookalike prefixes', () => {
    expect(serviceForPath('/api/meeting')).toBeUndefined();
    expect(serviceForPath('/api/health')).toBeUndefined();
  });
});

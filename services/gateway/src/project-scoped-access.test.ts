import { describe, expect, it } from 'vitest';
import { openToProjectScope } from './project-scoped-access';

const scope = ['p1', 'p 2'];

describe('what an access token made for some projects may send', () => {
  it('anything about its projects, reading who it acts for, a realtime token, and what needs no account', () => {
    for (const [method, path] of [
      ['GET', '/api/projects/p1'],
      ['PATCH', '/api/projects/p1/types/notes/data/d1'],
      ['GET', '/api/projects/p%202/audit-trail'],
      ['GET', '/api/realtime/projects/p1/sync'],
      ['GET', '/api/realtime/token'],
      ['GET', '/api/me'],
      ['POST', '/api/auth/logout'],
      ['GET', '/api/health/data'],
      ['GET', '/api/public/domains/example.com'],
      ['GET', '/api/openapi.json'],
      ['GET', '/api/docs'],
      ['GET', '/api/docs/static/index.html'],
    ] as const) {
      expect(openToProjectScope(method, path, scope), `${method} ${path}`).toBe(true);
    }
  });

  it('nothing else: other projects, the project list, tenants, users, the account settings, or a path that climbs out', () => {
    for (const [method, path] of [
      ['GET', '/api/projects/p3'],
      ['GET', '/api/realtime/projects/p3/sync'],
      ['GET', '/api/projects'],
      ['POST', '/api/projects'],
      ['GET', '/api/projects/deleted'],
      ['GET', '/api/tenants'],
      ['GET', '/api/docsets'],
      ['GET', '/api/openapi.jsonp'],
      ['GET', '/api/users/u1'],
      ['PUT', '/api/me/profile'],
      ['GET', '/api/me/tokens'],
      ['DELETE', '/api/me'],
      ['GET', '/api/projects/p1/../p3'],
      ['GET', '/api/projects/p1/%2e%2e/p3'],
      ['GET', '/api/projects/%E0%A4%A'],
    ] as const) {
      expect(openToProjectScope(method, path, scope), `${method} ${path}`).toBe(false);
    }
  });
});

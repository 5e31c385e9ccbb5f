import { describe, expect, it } from 'vitest';
import { openToUnconfirmedEmail } from './unconfirmed-email-access';

describe('what an account whose email must be confirmed first may send', () => {
  it('its own account, the sign-in routes and what needs no account', () => {
    for (const [method, path] of [
      ['GET', '/api/me'],
      ['PUT', '/api/me/profile'],
      ['POST', '/api/me/email-verification'],
      ['POST', '/api/me/email'],
      ['GET', '/api/me/deletion'],
      ['DELETE', '/api/me'],
      ['GET', '/api/me/invitations'],
      ['POST', '/api/me/invitations/i1/decline'],
      ['POST', '/api/auth/logout'],
      ['POST', '/api/auth/verify-email'],
      ['GET', '/api/health/data'],
      ['GET', '/api/public/domains/example.com'],
      ['GET', '/api/openapi.json'],
      ['GET', '/api/docs'],
      ['GET', '/api/docs/static/index.html'],
    ] as const) {
      expect(openToUnconfirmedEmail(method, path), `${method} ${path}`).toBe(true);
    }
  });

  it('nothing else: projects, tenants, other users, realtime, joining a project, or a path that only starts like an open one', () => {
    for (const [method, path] of [
      ['GET', '/api/projects'],
      ['POST', '/api/projects'],
      ['GET', '/api/projects/p1/types/notes/data'],
      ['GET', '/api/tenants'],
      ['GET', '/api/docsets'],
      ['GET', '/api/openapi.jsonp'],
      ['GET', '/api/users/u1'],
      ['GET', '/api/admin/users'],
      ['POST', '/api/realtime/token'],
      ['POST', '/api/me/invitations/i1/accept'],
      ['POST', '/api/invitations/accept'],
      ['GET', '/api/meetings'],
      ['GET', '/api/schemas/projects/p1/types/notes'],
      ['POST', '/api/help/chat'],
      ['GET', '/api/me/../projects'],
      ['GET', '/api/me/%2E%2E/projects'],
    ] as const) {
      expect(openToUnconfirmedEmail(method, path), `${method} ${path}`).toBe(false);
    }
  });
});

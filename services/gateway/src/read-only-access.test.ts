import { describe, expect, it } from 'vitest';
import { mayChange } from './read-only-access';

describe('what a read-only access token may send', () => {
  it('reads: GET, HEAD, OPTIONS anywhere, and the POSTs that change nothing', () => {
    for (const [method, path] of [
      ['GET', '/api/projects/p1/types/notes/data'],
      ['HEAD', '/api/me'],
      ['OPTIONS', '/api/projects'],
      ['POST', '/api/projects/p1/types/notes/data/readable'],
      ['POST', '/api/auth/logout'],
    ] as const) {
      expect(mayChange(method, path), `${method} ${path}`).toBe(false);
    }
  });

  it('not anything else, nor a path that only looks like a reading POST', () => {
    for (const [method, path] of [
      ['POST', '/api/projects/p1/types/notes/data'],
      ['PATCH', '/api/projects/p1/types/notes/data/d1'],
      ['DELETE', '/api/projects/p1/types/notes/data/d1'],
      ['PUT', '/api/me/profile'],
      ['POST', '/api/me/tokens'],
      ['POST', '/api/projects/p1/types/notes/data/readable/more'],
      ['POST', '/api/projects/p1/types/notes/data/d1/readable-ish'],
      ['PATCH', '/api/projects/p1/types/notes/data/readable'],
    ] as const) {
      expect(mayChange(method, path), `${method} ${path}`).toBe(true);
    }
  });
});

import { SESSION_COOKIE } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { sessionToken } from './session-token';

const withHeaders = (headers: Record<string, string>) => ({ headers });

describe('sessionToken', () => {
  it('reads a bearer token whatever the case of the scheme, and the spaces around it', () => {
    for (const authorization of ['Bearer abc.DEF-1', 'bearer abc.DEF-1', 'BEARER abc.DEF-1', 'Bearer   abc.DEF-1 ', 'Bearer\tabc.DEF-1']) {
      expect(sessionToken(withHeaders({ authorization })), authorization).toBe('abc.DEF-1');
    }
  });

  it('takes the session cookie when the header holds no bearer token: another scheme, none, or an empty one', () => {
    const cookie = `theme=dark; ${SESSION_COOKIE}=from-cookie`;
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearerabc', 'Bearer two words']) {
      expect(sessionToken(withHeaders({ authorization, cookie })), authorization).toBe('from-cookie');
      expect(sessionToken(withHeaders({ authorization })), authorization).toBeUndefined();
    }
    expect(sessionToken(withHeaders({ cookie }))).toBe('from-cookie');
    expect(sessionToken(withHeaders({}))).toBeUndefined();
  });
});

import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { sessionToken } from './session-token';

const withHeaders = (headers: Record<string, string>) => ({ headers });

describe('sessionToken', () => {
  it('reads a bearer token whatever the case of the scheme, and the spaces around it', () => {
    for (const authorization of ['Bearer abc.DEF-1', 'bearer abc.DEF-1', 'BEARER abc.DEF-1', 'Bearer   abc.DEF-1 ', 'Bearer\tabc.DEF-1']) {
      expect(sessionToken(withHeaders({ authorization }), SESSION_COOKIE), authorization).toBe('abc.DEF-1');
    }
  });

  it('takes the session cookie when the header holds no bearer token: another scheme, none, or an empty one', () => {
    const cookie = `theme=dark; ${SESSION_COOKIE}=from-cookie`;
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearerabc', 'Bearer two words']) {
      expect(sessionToken(withHeaders({ authorization, cookie }), SESSION_COOKIE), authorization).toBe('from-cookie');
      expect(sessionToken(withHeaders({ authorization }), SESSION_COOKIE), authorization).toBeUndefined();
    }
    expect(sessionToken(withHeaders({ cookie }), SESSION_COOKIE)).toBe('from-cookie');
    expect(sessionToken(withHeaders({}), SESSION_COOKIE)).toBeUndefined();
  });

  it('reads only the cookie of the name it is given: a deployment with Secure cookies ignores a plain `session` cookie', () => {
    const cookie = `${SESSION_COOKIE}=planted; ${SECURE_SESSION_COOKIE}=own`;
    expect(sessionToken(withHeaders({ cookie }), SECURE_SESSION_COOKIE)).toBe('own');
    expect(sessionToken(withHeaders({ cookie: `${SESSION_COOKIE}=planted` }), SECURE_SESSION_COOKIE)).toBeUndefined();
    expect(sessionToken(withHeaders({ cookie: `${SECURE_SESSION_COOKIE}=own` }), SESSION_COOKIE)).toBeUndefined();
  });
});

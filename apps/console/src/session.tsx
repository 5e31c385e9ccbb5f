import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, ApiError, onApiHealth, unwrap } from './api/client';
import type { paths } from './api/openapi';
import { isSignedOutPath } from './paths';
import { BASE, navigate } from './router';

export type CurrentUser = paths['/api/me']['get']['responses'][200]['content']['application/json'];

interface Session {
  /** undefined while loading, null when signed out. */
  user: CurrentUser | null | undefined;
  /** The last call answered 503: the banner shows until the service answers again. */
  unavailable: boolean;
  refresh(): Promise<void>;
  /** `code`: the authenticator app's code (or a recovery code), for an account with two-step sign-in. */
  signIn(email: string, password: string, code?: string): Promise<void>;
  signUp(email: string, password: string, displayName: string): Promise<void>;
  /** Chooses a new password with a mailed link's token, which signs in. */
  resetPassword(token: string, password: string, code?: string): Promise<void>;
  signOut(): Promise<void>;
  /** The server has ended the session already (the account was deleted): forget the user and show `path`. */
  ended(path: string): void;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

const HEALTH_RETRY_MS = 2_000;

/**
 * The signed-in user, from the gateway's HttpOnly `session` cookie (the console never sees the
 * token). A 401 anywhere signs out and goes to sign in; a 503 shows the banner and asks for the
 * user every 2 s until the platform answers again.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<CurrentUser | null | undefined>(undefined);
  const [unavailable, setUnavailable] = useState(false);

  const refresh = useCallback(async () => {
    try {
      setUser(await unwrap(api.GET('/api/me')));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 404)) setUser(null);
      else throw error;
    }
  }, []);

  useEffect(() => {
    void refresh().catch(() => undefined);
    return onApiHealth((status) => {
      if (status === 503) setUnavailable(true);
      else setUnavailable(false);
      if (status === 401) {
        setUser(null);
        const from = window.location.pathname.slice(BASE.length);
        // Signing in leads back to the page asked for (an invitation link, a project's page).
        const next = from && !['/', '/sign-in', '/projects'].includes(from) ? `?next=${encodeURIComponent(from)}` : '';
        if (!isSignedOutPath(from)) navigate(`/sign-in${next}`, { replace: true });
      }
    });
  }, [refresh]);

  useEffect(() => {
    if (!unavailable) return;
    // Asks for the user again rather than /api/health, which answers 200 while a service's
    // database is down: the banner goes when the console's own calls answer (the typed client
    // reports it), and a page that could not even load the user shows once it can.
    const timer = setInterval(() => void refresh().catch(() => undefined), HEALTH_RETRY_MS);
    return () => clearInterval(timer);
  }, [unavailable, refresh]);

  const signIn = useCallback(async (email: string, password: string, code?: string) => {
    await unwrap(api.POST('/api/auth/login', { body: { email, password, ...(code ? { code } : {}) } }));
    await refresh();
  }, [refresh]);

  const signUp = useCallback(async (email: string, password: string, displayName: string) => {
    await unwrap(api.POST('/api/auth/register', { body: { email, password, displayName } }));
    await refresh();
  }, [refresh]);

  const resetPassword = useCallback(async (token: string, password: string, code?: string) => {
    await unwrap(api.POST('/api/auth/password-reset/confirm', { body: { token, password, ...(code ? { code } : {}) } }));
    await refresh();
  }, [refresh]);

  const ended = useCallback((path: string) => {
    setUser(null);
    navigate(path);
  }, []);

  const signOut = useCallback(async () => {
    await unwrap(api.POST('/api/auth/logout'));
    ended('/sign-in');
  }, [ended]);

  return <SessionContext.Provider value={{ user, unavailable, refresh, signIn, signUp, resetPassword, signOut, ended }}>{children}</SessionContext.Provider>;
}

import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { lastUsed } from '../components/last-used';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';

type Session = paths['/api/me/sessions']['get']['responses'][200]['content']['application/json']['sessions'][number];

/** "Signed out on 2 other devices." as both the password change and "sign out everywhere else" say it. */
export function signedOutElsewhere(count: number): string {
  return count === 0 ? 'No other device was signed in.' : `Signed out on ${count} other ${count === 1 ? 'device' : 'devices'}.`;
}

const loadSessions = async (): Promise<Session[]> => (await unwrap(api.GET('/api/me/sessions'))).sessions;

/**
 * Where the user is signed in: each session's device, when and from which address it signed in,
 * and a way to sign out any other one, or all of them. `reloadKey` changes when sessions ended
 * elsewhere on the screen (a password change).
 */
export function AccountSessions({ reloadKey, onStatus }: { reloadKey: string; onStatus: (status: string) => void }) {
  const sessions = useLoad(loadSessions, reloadKey);
  const [error, setError] = useState<unknown>();
  const others = (sessions.value ?? []).filter((session) => !session.current);

  const end = async (work: () => Promise<string>) => {
    try {
      onStatus(await work());
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
    sessions.reload();
  };
  const endOne = (session: Session) =>
    end(async () => {
      await unwrap(api.DELETE('/api/me/sessions/{sessionId}', { params: { path: { sessionId: session.id } } }));
      return `Signed out ${session.device ?? 'the unknown device'}.`;
    });
  const endOthers = () => end(async () => signedOutElsewhere((await unwrap(api.DELETE('/api/me/sessions'))).endedSessions));

  return (
    <>
      <LoadError error={sessions.error ?? error} />
      <ul className="sessions" aria-label="Sessions">
        {(sessions.value ?? []).map((session) => (
          <li key={session.id}>
            <div>
              <strong>{session.device ?? 'Unknown device'}</strong>
              {session.current && <span className="badge">This device</span>}
              <br />
              <small className="muted signed-in">
                Signed in <time dateTime={new Date(session.createdAt).toISOString()}>{new Date(session.createdAt).toLocaleString()}</time>
                {session.address && ` from ${session.address}`}
              </small>
              <br />
              <small className="muted last-used">Last used {lastUsed(session.lastUsedAt)}</small>
            </div>
            {!session.current && (
              <button type="button" className="danger" onClick={() => void endOne(session)} aria-label={`Sign out ${session.device ?? 'the unknown device'} signed in ${new Date(session.createdAt).toLocaleString()}`}>
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <button type="button" className="danger" onClick={() => void endOthers()}>
          Sign out everywhere else
        </button>
      )}
    </>
  );
}

/**
 * Query parameters whose names end like these carry credentials (`token`, `access_token`,
 * `refreshToken`, `client_secret`, `api_key`, ...): a browser's EventSource or a link can only
 * pass them in the URL, and a URL written to a log would hand them to whoever reads the log.
 */
const CREDENTIAL_NAME = /(token|secret|password|passwd|signature|api[_-]?key)$/i;

export const REDACTED = '[redacted]';

/**
 * Paths whose next segment is a credential: an email invitation's token, which whoever holds it
 * may accept (`/api/invitations/{token}...`, and the console page the older mails link to), and the
 * development promotion link's (`/api/admin/dev/platform-owner/{token}`).
 */
const CREDENTIAL_PATH = /^(\/api\/invitations\/|\/console\/invitations\/|\/api\/admin\/dev\/platform-owner\/)[^/?#]+/;

/**
 * A value shaped like one of the platform's own credentials, whatever the parameter is called: a
 * session, a mailed link's token or an invitation's (32 random bytes, base64url), an access token
 * (the same after `pat_`), a promotion link's (64 hex digits). A program that puts its token in a
 * parameter the route does not take (`?key=pat_...`) is refused, but its URL was still logged.
 */
const CREDENTIAL_VALUE = /^(?:(?:pat_)?[A-Za-z0-9_-]{43}|[0-9a-f]{64})$/;

/** A query value naming such a page (the console's sign-in `?next=/invitations/{token}` on a reload). */
const INVITATION_IN_VALUE = /\/invitations\/[^/?#&]/;

function parameterName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * The request URL as it may be logged: the value of every credential parameter (or one naming an
 * invitation's page, or shaped like a platform credential) and a credential path segment replaced by `[redacted]`, everything else left exactly as the client sent it.
 */
export function redactUrlCredentials(given: string): string {
  const url = given.replace(CREDENTIAL_PATH, `$1${REDACTED}`);
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      const value = equals < 0 ? '' : parameterName(pair.slice(equals + 1));
      const carriesCredential = CREDENTIAL_NAME.test(parameterName(name)) || (equals >= 0 && (INVITATION_IN_VALUE.test(value) || CREDENTIAL_VALUE.test(value)));
      return carriesCredential ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

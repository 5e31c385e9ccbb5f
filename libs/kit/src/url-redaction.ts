/**
 * Query parameters whose names end like these carry credentials (`token`, `access_token`,
 * `refreshToken`, `client_secret`, `api_key`, ...): a browser's EventSource or a link can only
 * pass them in the URL, and a URL written to a log would hand them to whoever reads the log.
 */
const CREDENTIAL_NAME = /(token|secret|password|passwd|signature|api[_-]?key)$/i;

export const REDACTED = '[redacted]';

/**
 * Paths whose next segment is a credential: an email invitation's token, which whoever holds it
 * may accept (`/api/invitations/{token}...`, and the console page the older mails link to).
 */
const CREDENTIAL_PATH = /^(\/api\/invitations\/|\/console\/invitations\/)[^/?#]+/;

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
 * invitation's page) and a credential path segment replaced by `[redacted]`, everything else left exactly as the client sent it.
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
      const carriesCredential = CREDENTIAL_NAME.test(parameterName(name)) || (equals >= 0 && INVITATION_IN_VALUE.test(parameterName(pair.slice(equals + 1))));
      return carriesCredential ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

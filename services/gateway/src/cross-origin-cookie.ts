import { AppError } from '@platform/kit';

const READING_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Fetch Metadata values of a request the platform's own pages made, or the person themselves (a typed address, a bookmark). */
const OWN_ORIGIN: ReadonlySet<string> = new Set(['same-origin', 'none']);

/**
 * Whether a browser sent this request, which may change something, from another origin with the
 * session cookie. SameSite=Lax keeps cross-site pages from sending the cookie on such requests,
 * but not pages of the same site: a sibling subdomain or another port could publish a version,
 * restore a project or accept an invitation (POSTs without a body) as the person. Browsers say
 * where a request comes from in `Sec-Fetch-Site`; one that sends no such header (an older
 * browser, a program) is left to SameSite. A bearer token is no ambient credential and passes.
 */
export function cookieFromAnotherOrigin(method: string, headers: Record<string, string | string[] | undefined>): boolean {
  if (READING_METHODS.has(method)) return false;
  const site = headers['sec-fetch-site'];
  return typeof site === 'string' && !OWN_ORIGIN.has(site);
}

export const crossOriginCookieRefusal = (): AppError =>
  new AppError(403, 'GATEWAY_CROSS_ORIGIN_COOKIE', "A page of another origin cannot use this browser's session to change something: send the request from the platform's own pages, or with a bearer token (an access token) and without credentials");

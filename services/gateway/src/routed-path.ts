import Router from 'find-my-way';

/**
 * A request's path as the routers will match it: the gateway's and every service's (find-my-way,
 * Fastify's router, with a trailing slash ignored) end it at `?` or `#`, decode its percent-escapes
 * and drop a last `/`. Every decision the gateway takes by path (read-only tokens, unconfirmed
 * accounts, project-scoped tokens, the paths that load no session) takes it on this one: on the
 * raw URL, `/types/#/data/readable` read as a reading POST and was routed as a type's creation,
 * and `.../accept/` or `.../%61ccept` escaped the refusal of `.../accept`.
 */
export function routedPath(url: string): string {
  try {
    return Router.trimLastSlash(Router.sanitizeUrlPath(url));
  } catch {
    // A malformed escape (`%E0%A4`): the router answers 400 FST_ERR_BAD_URL for it; decide on the undecoded path meanwhile.
    return Router.trimLastSlash(url.split(/[?#]/)[0] ?? '');
  }
}

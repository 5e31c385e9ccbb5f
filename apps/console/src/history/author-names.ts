/** What a name lookup found: the user's display name, or that the caller may not see the user. */
export type NameLookup = { found: string | undefined } | 'hidden';

/**
 * Whether an answer of `GET /api/users/{id}` means the caller may not see that user (403, or 404
 * for a user who is gone): an answer to keep. Anything else (401 while signed out, 429, a 5xx) is
 * about the moment, not the user, and is asked again.
 */
export function hidesUser(status: number): boolean {
  return status === 403 || status === 404;
}

/**
 * Display names by user id, each asked for once. Only answers are kept: a name, or that the user is
 * hidden from the caller (the id stands in for good). A lookup that failed (offline, a 5xx, a 401) answers
 * the id for now and is forgotten, so the next use asks again: a page opened just before the
 * connection dropped would otherwise show raw ids for the rest of the session.
 */
export function authorNames(lookup: (userId: string) => Promise<NameLookup>): (userId: string) => Promise<string> {
  const names = new Map<string, Promise<string>>();
  return (userId) => {
    const known = names.get(userId);
    if (known) return known;
    const name = lookup(userId).then(
      (answer) => (answer !== 'hidden' && answer.found ? answer.found : userId),
      () => {
        if (names.get(userId) === name) names.delete(userId);
        return userId;
      },
    );
    names.set(userId, name);
    return name;
  };
}

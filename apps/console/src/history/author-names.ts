/** What a name lookup found: the user's display name, or that the caller may not see the user (a 4xx). */
export type NameLookup = { found: string | undefined } | 'hidden';

/**
 * Display names by user id, each asked for once. Only answers are kept: a name, or that the user is
 * hidden from the caller (the id stands in for good). A lookup that failed (offline, a 5xx) answers
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

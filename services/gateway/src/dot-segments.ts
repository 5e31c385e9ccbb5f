/**
 * Whether a request path has a dot segment (`/..`, `/.`, or one spelt `%2e`). No API path has one,
 * so a rule that allows a path by its prefix refuses it: `/api/me/../projects` is no path of the account's.
 */
export function hasDotSegment(path: string): boolean {
  return /\/(?:\.|%2e)/i.test(path);
}

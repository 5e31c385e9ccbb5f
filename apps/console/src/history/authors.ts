import { api, unwrap } from '../api/client';

const names = new Map<string, Promise<string>>();

/** An author's display name as the caller may see it (`GET /api/users/{id}`), else the user id. */
export function authorName(userId: string): Promise<string> {
  let name = names.get(userId);
  if (!name) {
    name = unwrap(api.GET('/api/users/{userId}', { params: { path: { userId } } })).then(
      (user) => (typeof user.displayName === 'string' && user.displayName ? user.displayName : userId),
      () => userId,
    );
    names.set(userId, name);
  }
  return name;
}

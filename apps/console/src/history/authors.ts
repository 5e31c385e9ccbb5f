import { api, ApiError, unwrap } from '../api/client';
import { authorNames, hidesUser, type NameLookup } from './author-names';

/** `GET /api/users/{id}`: the display name, or hidden when the API will not show the user; anything else fails. */
async function lookUpUser(userId: string): Promise<NameLookup> {
  try {
    const user = await unwrap(api.GET('/api/users/{userId}', { params: { path: { userId } } }));
    return { found: typeof user.displayName === 'string' && user.displayName ? user.displayName : undefined };
  } catch (error) {
    if (error instanceof ApiError && hidesUser(error.status)) return 'hidden';
    throw error;
  }
}

/** An author's display name as the caller may see it (`GET /api/users/{id}`), else the user id. */
export const authorName = authorNames(lookUpUser);

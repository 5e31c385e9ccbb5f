import { AppError } from '@platform/kit';

const READING_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * POSTs that change nothing, which a read-only token may send: asking which documents are
 * readable (the body carries the ids), and signing the token's own use out.
 */
const READING_POSTS: readonly RegExp[] = [/^\/api\/projects\/[^/]+\/types\/[^/]+\/data\/readable$/, /^\/api\/auth\/logout$/];

/** Whether a request could change something, so a read-only access token may not send it. */
export function mayChange(method: string, path: string): boolean {
  if (READING_METHODS.has(method)) return false;
  return !(method === 'POST' && READING_POSTS.some((pattern) => pattern.test(path)));
}

export const readOnlyRefusal = (): AppError => new AppError(403, 'GATEWAY_TOKEN_READ_ONLY', 'This access token is for reading: it cannot change anything');

import { createHash } from 'node:crypto';

/**
 * SHA-256 hex of a secret token (a session's, a reset or invitation link's): stores keep only
 * this, so a copy of the store holds no working token.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

import { createHash } from 'node:crypto';

/** An account as the limits count it: the SHA-256 of its email, so the KeyValue store holds no address. */
export function accountLimitKey(email: string): string {
  return createHash('sha256').update(email).digest('hex');
}

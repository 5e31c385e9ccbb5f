/**
 * Identity publishes `platform.users.<userId>.deleted` (message id `account-deleted:<userId>`)
 * when an account is deleted; a service that copied the user's personal data (audit: the display
 * name on each trail item) erases its copies. The erasure is idempotent, so a repeated message
 * changes nothing.
 */
export interface AccountDeleted {
  userId: string;
  /** When the account was deleted (Unix ms). */
  deletedAt: number;
}

export const ACCOUNT_DELETED_FILTER = 'platform.users.*.deleted';

export function accountDeletedSubject(userId: string): string {
  return `platform.users.${userId}.deleted`;
}

export function accountDeletedMessageId(userId: string): string {
  return `account-deleted:${userId}`;
}

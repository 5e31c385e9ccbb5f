import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { z } from 'zod';

/**
 * Argon2 runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), which
 * file writes, the embedded store's log among them, and DNS lookups share: sign-ins of a few
 * accounts, which the throttle does not count when they succeed, kept every thread busy and a
 * document write waited 118 ms instead of 5. Two at a time leave the rest to everything else;
 * more wait their turn here.
 */
export const ARGON2_CONCURRENCY = 2;
const argon2Turn = pLimit(ARGON2_CONCURRENCY);

/** A password someone chooses (registration, a change, a reset): kept exactly as typed, never trimmed; only whitespace is refused. */
export const newPasswordSchema = z
  .string()
  .min(8, 'at least 8 characters')
  .max(1024)
  .refine((password) => password.trim() !== '', 'must contain something other than spaces');

/** A password given to be checked (sign-in, the current one of a change): taken as typed. */
export const givenPasswordSchema = z.string().min(1).max(1024);

/**
 * Argon2id (memory-hard) through @node-rs/argon2 with its defaults (19 MiB, 2 passes: the OWASP
 * recommendation). The hash string carries its own parameters, so they can be raised later.
 */
export function hashPassword(password: string): Promise<string> {
  return argon2Turn(() => hash(password));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2Turn(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

/** Argon2 calls under way or waiting for their turn (ARGON2_CONCURRENCY); for tests. */
export function argon2Load(): { running: number; waiting: number } {
  return { running: argon2Turn.activeCount, waiting: argon2Turn.pendingCount };
}

/** Verified when the email is unknown, so a miss costs as long as a wrong password. */
let decoyHash: Promise<string> | undefined;
export async function spendVerificationTime(password: string): Promise<void> {
  decoyHash ??= hashPassword('decoy password for unknown accounts');
  await verifyPassword(await decoyHash, password);
}

import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';

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
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verified when the email is unknown, so a miss costs as long as a wrong password. */
let decoyHash: Promise<string> | undefined;
export async function spendVerificationTime(password: string): Promise<void> {
  decoyHash ??= hash('decoy password for unknown accounts');
  await verifyPassword(await decoyHash, password);
}

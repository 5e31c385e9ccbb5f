import { parseEnv } from '@platform/kit';
import { z } from 'zod';

export const identityEnvSchema = z.object({
  /** Registrations allowed from one client address per window (attempts, whatever their outcome). */
  IDENTITY_REGISTRATIONS_PER_IP: z.coerce.number().int().min(1).default(20),
  /** The length of the registration window, in minutes. */
  IDENTITY_REGISTRATION_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  /** Invitation mails (new and renewed email invitations) one project, and one inviter, may send per hour. */
  IDENTITY_INVITATION_MAILS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** How many days a deleted project can be restored by its owners before it is purged. */
  IDENTITY_PROJECT_RESTORE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** How often each replica checks whether the hourly purge of deleted projects is due (ms). */
  IDENTITY_PROJECT_PURGE_CHECK_MS: z.coerce.number().int().min(100).default(60_000),
  /** Accounts may use nothing but their own account until a mailed link confirmed their email. */
  IDENTITY_REQUIRE_CONFIRMED_EMAIL: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
});

export interface IdentityConfig {
  registrationLimit: { perIp: number; windowMs: number };
  invitationMailLimit: { perHour: number };
  /** How long a deleted project stays restorable, in ms. */
  projectRestorePeriodMs: number;
  /** How often the purge schedule checks for a due occurrence (ms). */
  projectPurgeCheckMs: number;
  /** An account whose email is unconfirmed may use nothing but its own account (the gateway refuses the rest). */
  requireConfirmedEmail: boolean;
}

/** Reads the identity service's environment; a bad value stops start-up naming the variable. */
export function loadIdentityConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  const parsed = parseEnv(identityEnvSchema, env);
  return {
    registrationLimit: { perIp: parsed.IDENTITY_REGISTRATIONS_PER_IP, windowMs: parsed.IDENTITY_REGISTRATION_WINDOW_MINUTES * 60_000 },
    invitationMailLimit: { perHour: parsed.IDENTITY_INVITATION_MAILS_PER_HOUR },
    projectRestorePeriodMs: parsed.IDENTITY_PROJECT_RESTORE_DAYS * 24 * 60 * 60 * 1000,
    projectPurgeCheckMs: parsed.IDENTITY_PROJECT_PURGE_CHECK_MS,
    requireConfirmedEmail: parsed.IDENTITY_REQUIRE_CONFIRMED_EMAIL,
  };
}

import { parseEnv } from '@platform/kit';
import { z } from 'zod';
import type { ThrottleLimits } from './auth/login-throttle';

export const identityEnvSchema = z.object({
  /** Registrations allowed from one client address per window (attempts, whatever their outcome). */
  IDENTITY_REGISTRATIONS_PER_IP: z.coerce.number().int().min(1).default(20),
  /** The length of the registration window, in minutes. */
  IDENTITY_REGISTRATION_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  /** Failed sign-ins (and password or second-factor checks) one account may have per window before 429. */
  IDENTITY_LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins one client address may have per window before 429. */
  IDENTITY_LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(20),
  /** The length of the sign-in failure window, in minutes. */
  IDENTITY_LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
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
  /** Failed sign-ins allowed per account and per client address in a fixed window. */
  loginLimits: ThrottleLimits;
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
    loginLimits: { perAccount: parsed.IDENTITY_LOGIN_FAILURES_PER_ACCOUNT, perIp: parsed.IDENTITY_LOGIN_FAILURES_PER_IP, windowMs: parsed.IDENTITY_LOGIN_WINDOW_MINUTES * 60_000 },
    invitationMailLimit: { perHour: parsed.IDENTITY_INVITATION_MAILS_PER_HOUR },
    projectRestorePeriodMs: parsed.IDENTITY_PROJECT_RESTORE_DAYS * 24 * 60 * 60 * 1000,
    projectPurgeCheckMs: parsed.IDENTITY_PROJECT_PURGE_CHECK_MS,
    requireConfirmedEmail: parsed.IDENTITY_REQUIRE_CONFIRMED_EMAIL,
  };
}

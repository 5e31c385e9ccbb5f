import { parseEnv } from '@platform/kit';
import { z } from 'zod';

export const identityEnvSchema = z.object({
  /** Registrations allowed from one client address per window (attempts, whatever their outcome). */
  IDENTITY_REGISTRATIONS_PER_IP: z.coerce.number().int().min(1).default(20),
  /** The length of the registration window, in minutes. */
  IDENTITY_REGISTRATION_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  /** Invitation mails (new and renewed email invitations) one project, and one inviter, may send per hour. */
  IDENTITY_INVITATION_MAILS_PER_HOUR: z.coerce.number().int().min(1).default(20),
});

export interface IdentityConfig {
  registrationLimit: { perIp: number; windowMs: number };
  invitationMailLimit: { perHour: number };
}

/** Reads the identity service's environment; a bad value stops start-up naming the variable. */
export function loadIdentityConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  const parsed = parseEnv(identityEnvSchema, env);
  return {
    registrationLimit: { perIp: parsed.IDENTITY_REGISTRATIONS_PER_IP, windowMs: parsed.IDENTITY_REGISTRATION_WINDOW_MINUTES * 60_000 },
    invitationMailLimit: { perHour: parsed.IDENTITY_INVITATION_MAILS_PER_HOUR },
  };
}

import { z } from 'zod';
import type { PendingTwoFactor, TwoFactor } from '../auth/two-factor';

export const USERS_COLLECTION = 'users';

/** Who may see a profile field (`UserProfileAccessLevel`). */
export const privacySchema = z.enum(['public', 'projects', 'private']);
export type Privacy = z.infer<typeof privacySchema>;
export const DEFAULT_PRIVACY: Privacy = 'projects';

/** The longest display name, at registration and in the profile alike (it shows in lists, mails and sessions). */
export const DISPLAY_NAME_MAX_LENGTH = 100;

export const profileFieldSchema = z.object({ value: z.unknown().optional(), privacy: privacySchema });
export type ProfileField = z.infer<typeof profileFieldSchema>;
export type ProfileFields = Partial<Record<'firstName' | 'lastName' | 'displayName' | 'email', ProfileField>>;

/** A user as routes see it: everything stored except the password hash. */
export interface StoredUser {
  id: string;
  /** Lower-cased; unique. */
  email: string;
  displayName: string;
  profileFields: ProfileFields;
  /** projectId to the time it was last opened (Unix ms), newest first, at most 50. */
  recentProjects: Record<string, number>;
  platformOwner: boolean;
  language?: string;
  avatarUrl?: string;
  /** When a mailed link proved the account's owner reads its address (verification, email change, reset). */
  emailVerifiedAt?: number;
  /** When two-step sign-in was turned on; absent while it is off. */
  twoFactorEnabledAt?: number;
  /**
   * Counts the changes that end the account's sessions (a new password, the account's deletion),
   * each in the same write as the change itself; absent (0) until the first. A sign-in compares it
   * after writing its session with the value it read beside the password it checked
   * (auth/checked-session.ts).
   */
  credentialGeneration?: number;
  createdAt: number;
  updatedAt: number;
  revision: number;
}

/**
 * A user as identity stores it. `passwordHash` and the second factor's secrets are read only by
 * sign-in and the routes that check them (see UserRepository).
 */
export interface UserRecord extends StoredUser {
  passwordHash: string;
  twoFactor?: TwoFactor;
  twoFactorPending?: PendingTwoFactor;
}

/** The user's credential generation: 0 for an account whose credentials never changed. */
export const credentialGenerationOf = (user: Pick<StoredUser, 'credentialGeneration'>): number => user.credentialGeneration ?? 0;

/** The user as its owner sees it (`GET /api/me`, sign-in answers). */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  profileFields: z.record(z.string(), profileFieldSchema),
  recentProjects: z.record(z.string(), z.number()),
  platformOwner: z.boolean(),
  language: z.string().optional(),
  avatarUrl: z.string().optional(),
  emailVerified: z.boolean().describe("Whether a mailed link proved the account's owner reads its address"),
  emailConfirmationRequired: z
    .boolean()
    .describe('Whether the account may use nothing but itself (`/api/me`, `/api/auth`) until its email is confirmed: the operator requires confirmed emails (IDENTITY_REQUIRE_CONFIRMED_EMAIL) and this one is not'),
  twoFactorEnabled: z.boolean().describe('Whether signing in asks for a code from an authenticator app'),
  createdAt: z.number(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** `requireConfirmedEmail`: the platform's IDENTITY_REQUIRE_CONFIRMED_EMAIL. */
export function toCurrentUser(user: StoredUser, requireConfirmedEmail: boolean): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    profileFields: user.profileFields as Record<string, ProfileField>,
    recentProjects: user.recentProjects,
    platformOwner: user.platformOwner,
    ...(user.language ? { language: user.language } : {}),
    ...(user.avatarUrl ? { avatarUrl: user.avatarUrl } : {}),
    emailVerified: user.emailVerifiedAt !== undefined,
    emailConfirmationRequired: requireConfirmedEmail && user.emailVerifiedAt === undefined,
    twoFactorEnabled: user.twoFactorEnabledAt !== undefined,
    createdAt: user.createdAt,
  };
}

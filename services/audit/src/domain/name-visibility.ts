import { z } from 'zod';

/** Identity's profile privacy levels (spec: User and profile, `UserProfileAccessLevel`). */
export const privacySchema = z.enum(['public', 'projects', 'private']);
export type Privacy = z.infer<typeof privacySchema>;

/** Identity stores a display name without an explicit level as `projects`. */
export const DEFAULT_PRIVACY: Privacy = 'projects';

/** How the reader of the trail stands to an item's author. */
export type Viewer = 'self' | 'shares-project' | 'other';

/**
 * Whether the reader may see the author's display name: identity's rule for profile fields
 * (services/identity/src/users/profile-visibility.ts): `public` to everyone, `projects` to members
 * of a project both belong to, `private` to the author alone; platform owners count as `self`.
 */
export function displayNameVisible(privacy: Privacy, viewer: Viewer): boolean {
  if (viewer === 'self') return true;
  if (privacy === 'public') return true;
  return privacy === 'projects' && viewer === 'shares-project';
}

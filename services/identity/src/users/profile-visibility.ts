import type { ProfileField, ProfileFields } from './user-record';

/** How the viewer stands to the profile's owner (`shares-project`: a project or a tenant in common). */
export type Viewer = 'self' | 'shares-project' | 'other';

/** Privacy rules: `public` to everyone, `projects` to members of a shared project or tenant, `private` to the owner. */
export function canSee(field: ProfileField, viewer: Viewer): boolean {
  if (viewer === 'self') return true;
  if (field.privacy === 'public') return true;
  return field.privacy === 'projects' && viewer === 'shares-project';
}

/** The profile fields the viewer may see; the email field shows the address itself when visible. */
export function visibleProfile(fields: ProfileFields, email: string, viewer: Viewer): Record<string, ProfileField> {
  const visible: Record<string, ProfileField> = {};
  for (const [key, field] of Object.entries(fields) as Array<[string, ProfileField]>) {
    if (!canSee(field, viewer)) continue;
    visible[key] = key === 'email' ? { value: email, privacy: field.privacy } : field;
  }
  return visible;
}

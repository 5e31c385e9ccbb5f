import { errorCatalogue } from '@platform/kit';

/** The identity service's errors; codes are stable, clients may switch on them. */
export const identityError = errorCatalogue({
  IDENTITY_EMAIL_TAKEN: [409, 'An account with this email already exists'],
  IDENTITY_INVALID_CREDENTIALS: [401, 'Invalid email or password'],
  IDENTITY_TOO_MANY_ATTEMPTS: [429, 'Too many failed sign-in attempts; try again later'],
  IDENTITY_TOO_MANY_REGISTRATIONS: [429, 'Too many registrations from this address; try again later'],
  IDENTITY_SESSION_STORE_UNAVAILABLE: [503, 'Sign-in is unavailable right now: the session store cannot be reached; try again shortly'],
  IDENTITY_USER_NOT_FOUND: [404, 'User not found'],
  IDENTITY_INVALID_PROFILE: [400, 'Invalid profile update'],
  IDENTITY_FORBIDDEN: [403, 'You may not change this project'],
  IDENTITY_OWNER_MEMBERSHIP: [409, "The project owner's membership cannot be changed"],
  IDENTITY_INVALID_PERMISSION: [400, 'Invalid permission'],
  IDENTITY_PROMOTION_TOKEN_INVALID: [403, 'Invalid or expired token'],
  IDENTITY_PROMOTION_NOT_SINGLE_USER: [403, 'This endpoint only works when there is exactly 1 user'],
  IDENTITY_TENANT_NOT_FOUND: [404, 'Tenant not found'],
  IDENTITY_TENANT_ADMIN_ONLY: [403, 'Only an admin of this tenant may do this'],
  IDENTITY_LAST_TENANT_ADMIN: [409, 'A tenant keeps at least one admin: make someone else admin first'],
  IDENTITY_PERSONAL_TENANT: [409, 'A personal tenant has only its own user'],
  IDENTITY_INVITATION_NOT_FOUND: [404, 'Invitation not found'],
  IDENTITY_TOO_MANY_INVITATIONS: [429, 'Too many invitation mails sent from this project or by you; try again later'],
  IDENTITY_MAIL_FAILED: [502, 'The invitation mail could not be sent, so no invitation is pending; try again later'],
  IDENTITY_ALREADY_MEMBER: [409, 'You are already a member of this project'],
  IDENTITY_PLATFORM_OWNER_ONLY: [403, 'Only platform owners may do this'],
  IDENTITY_BACKUP_UNSUPPORTED: [409, 'This store is not backed up by the platform: back up MongoDB with its own tools (mongodump)'],
});

import { AppError } from '@platform/kit';
import { hasDotSegment } from './dot-segments';

/**
 * What an account whose email is unconfirmed may reach where the operator requires confirmed
 * emails (IDENTITY_REQUIRE_CONFIRMED_EMAIL): its own account (`/api/me`, to read it, confirm the
 * address, correct a mistyped one, or delete it), the sign-in routes, and what needs no account
 * anyway (health, the public domain routes, the API description and its pages). Not `/api/schemas` (a project's type schemas) nor
 * `/api/help` (it names a project in its body, query or Referer): both reach a project. Accepting
 * an invitation joins a project, so it waits for the confirmation like everything else.
 */
const OPEN_PREFIXES: readonly RegExp[] = [/^\/api\/(?:auth|me|health|public|openapi\.json|docs)(?:\/|$)/];
const JOINING: readonly RegExp[] = [/^\/api\/me\/invitations\/[^/]+\/accept$/];

/** Whether an account with an unconfirmed email may send this request. */
export function openToUnconfirmedEmail(method: string, path: string): boolean {
  if (hasDotSegment(path)) return false;
  if (!OPEN_PREFIXES.some((pattern) => pattern.test(path))) return false;
  return !(method === 'POST' && JOINING.some((pattern) => pattern.test(path)));
}

export const unconfirmedEmailRefusal = (): AppError =>
  new AppError(403, 'GATEWAY_EMAIL_UNCONFIRMED', 'Confirm your email address first: open the link in the mail we sent you, or ask for a new one (POST /api/me/email-verification)');

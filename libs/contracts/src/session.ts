import { z } from 'zod';

/**
 * A server-side session as identity stores it in the KeyValue port under
 * `sessionKey(tokenHash)`. The gateway reads it on every request; the token itself is never stored.
 */
export const sessionRecordSchema = z.object({
  id: z.string().min(1),
  userId: z.string().min(1),
  /** Absolute expiry, Unix ms (30 days from creation, never extended). */
  expiresAt: z.number().int(),
  createdAt: z.number().int(),
  platformOwner: z.boolean(),
  displayName: z.string().optional(),
  language: z.string().optional(),
  /** A read-only personal access token: the gateway refuses every request that could change something. */
  readOnly: z.boolean().optional(),
  /**
   * The account's email is unconfirmed where the operator requires it confirmed
   * (IDENTITY_REQUIRE_CONFIRMED_EMAIL): the gateway refuses everything but the account's own routes.
   */
  emailUnconfirmed: z.boolean().optional(),
  /**
   * An access token made for these projects only: the gateway refuses it every route outside them,
   * and services treat every other project as unknown to it.
   */
  projectIds: z.array(z.string()).optional(),
});

export type SessionRecord = z.infer<typeof sessionRecordSchema>;

/** The session cookie's name on plain-HTTP development hosts. */
export const SESSION_COOKIE = 'session';
/** Its name where it is Secure (outside development): see sessionCookieName. */
export const SECURE_SESSION_COOKIE = '__Host-session';

/**
 * The session cookie's name: `__Host-session` when the cookie is Secure, which browsers take only
 * from the platform's own host (Secure, `Path=/`, no `Domain`), so a page on a sibling subdomain
 * (a published application on `*.example.com`, say) cannot plant a session of its choosing for the
 * platform to read; `session` in development, where the cookie cannot be Secure over plain HTTP.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * KeyValue key where gateways note when a session (or access token) was last used, by the SHA-256
 * hex of its token: Unix ms as text, written at most once per SESSION_USE_RESOLUTION_MS a session
 * and gateway process, so "last used" is right to within that.
 */
export function sessionUsedKey(tokenHash: string): string {
  return `session-used:${tokenHash}`;
}

export const SESSION_USE_RESOLUTION_MS = 5 * 60_000;
export const SESSION_KEY_PREFIX = 'session:';

/** KeyValue key of a session, by the SHA-256 hex of its token. */
export function sessionKey(tokenHash: string): string {
  return `${SESSION_KEY_PREFIX}${tokenHash}`;
}

/**
 * Live bus subject on which identity announces ended sessions (logout) and access tokens whose
 * projects changed, so gateways look at their realtime streams again at once and close those that
 * no longer stand; outside `platform.>`, nothing is stored.
 */
export const SESSION_ENDED_SUBJECT = 'sessions.ended';

/** The notice on SESSION_ENDED_SUBJECT: the token hashes (session keys) that no longer exist or were changed. */
export interface SessionEndedNotice {
  tokenHashes: string[];
}

import { z } from 'zod';

/**
 * An email address as the server takes it: trimmed and lower-cased, then checked, at most 320
 * characters. The check is a zod check rather than a pipe, so the API description declares it
 * (`format: email` and its pattern) and clients and fuzzers generate addresses the server accepts.
 */
export const emailAddress = z.string().trim().toLowerCase().check(z.email('a valid email address')).max(320);

/**
 * The email of an existing account as a caller types it (sign-in, password reset): any non-blank
 * text, trimmed and lower-cased, without the address check, so an account stored before the check
 * is still found; the API description declares non-blank as a pattern.
 */
export const accountEmail = z.string().regex(/\S/, 'must not be blank').trim().toLowerCase().max(320);

import { z } from 'zod';

/**
 * An email address as the server takes it: trimmed and lower-cased, then checked, at most 320
 * characters. The check is a zod check rather than a pipe, so the API description declares it
 * (`format: email` and its pattern) and clients and fuzzers generate addresses the server accepts.
 */
export const emailAddress = z.string().trim().toLowerCase().check(z.email('a valid email address')).max(320);

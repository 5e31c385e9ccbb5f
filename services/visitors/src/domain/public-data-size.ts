import { visitorsError } from '../errors';
import { withoutServerFields } from './visitor-fields';

/**
 * Throws 413 VISITORS_DATA_TOO_LARGE when a public caller's write would leave more than `maxBytes`
 * (JSON) of its own fields in one visitor record or event: the record's `existing` fields, without
 * the server's (`owned`) and the type's `access`, with the write's `fields`. Every public record is
 * kept with its history for the retention period, so what anonymous kiosks may store stays far
 * below the data service's document limit. Members (no `maxBytes`) are not held to it, and a write
 * that sets no field adds nothing.
 */
export function assertPublicDataSize(
  fields: Record<string, unknown>,
  { existing = {}, owned, maxBytes }: { existing?: Record<string, unknown>; owned: readonly string[]; maxBytes: number | undefined },
): void {
  if (maxBytes === undefined || !Object.keys(fields).length) return;
  const stored = { ...withoutServerFields(existing, [...owned, 'access']).fields, ...fields };
  const bytes = Buffer.byteLength(JSON.stringify(stored));
  if (bytes <= maxBytes) return;
  throw visitorsError('VISITORS_DATA_TOO_LARGE', {
    message: `Invalid data: is ${bytes} bytes; a public caller may store at most ${maxBytes} bytes in one record`,
    details: { field: 'data', limit: maxBytes, bytes },
  });
}

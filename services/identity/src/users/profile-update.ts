import { identityError } from '../errors';
import { DEFAULT_PRIVACY, DISPLAY_NAME_MAX_LENGTH, privacySchema, type Privacy, type ProfileField, type ProfileFields } from './user-record';

const NAME_KEYS = ['firstName', 'lastName', 'displayName'] as const;
const MAX_VALUE_BYTES = 10_000;
/** Stored values must be storable as-is: no `$`-prefixed or dotted keys anywhere inside. */
const UNSAFE_KEY = /^\$|\./;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function privacyOf(key: string, given: unknown): Privacy {
  if (given === undefined) return DEFAULT_PRIVACY;
  const parsed = privacySchema.safeParse(given);
  if (!parsed.success) throw identityError('IDENTITY_INVALID_PROFILE', { message: `Invalid ${key}.privacy: expected public, projects or private` });
  return parsed.data;
}

function assertStorable(key: string, value: unknown): void {
  const json = JSON.stringify(value ?? null);
  if (Buffer.byteLength(json) > MAX_VALUE_BYTES) throw identityError('IDENTITY_INVALID_PROFILE', { message: `Invalid ${key}: larger than ${MAX_VALUE_BYTES} bytes` });
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isPlainObject(node)) {
      for (const [name, child] of Object.entries(node)) {
        if (UNSAFE_KEY.test(name)) throw identityError('IDENTITY_INVALID_PROFILE', { message: `Invalid ${key}: keys may not start with $ or contain a dot` });
        visit(child);
      }
    }
  };
  visit(value);
}

/**
 * `PUT /api/me/profile` rules 2-5 on the stored profile fields; answers only the fields to write.
 * Unknown keys (including `id`) are ignored; a name field takes a plain value (privacy
 * `projects`) or `{ value, privacy? }`, and an object without `value` is itself the value;
 * `email` takes only `{ privacy }` and is created with `projects` when missing.
 */
export function profileChanges(current: ProfileFields, body: Record<string, unknown>): ProfileFields {
  const changes: ProfileFields = {};
  for (const key of NAME_KEYS) {
    if (!(key in body)) continue;
    const given = body[key];
    const field: ProfileField = isPlainObject(given) && 'value' in given ? { value: given.value, privacy: privacyOf(key, given.privacy) } : { value: given, privacy: DEFAULT_PRIVACY };
    assertStorable(key, field.value);
    // A string display name becomes the account's name: registration's limit holds here too.
    if (key === 'displayName' && typeof field.value === 'string' && field.value.trim().length > DISPLAY_NAME_MAX_LENGTH) {
      throw identityError('IDENTITY_INVALID_PROFILE', { message: `Invalid displayName: at most ${DISPLAY_NAME_MAX_LENGTH} characters` });
    }
    changes[key] = field;
  }
  if ('email' in body) {
    const given = body.email;
    if (isPlainObject(given) && 'privacy' in given) changes.email = { privacy: privacyOf('email', given.privacy) };
    else if (!current.email) changes.email = { privacy: DEFAULT_PRIVACY };
  }
  return changes;
}

import { SYSTEM_FIELDS } from './modifier-rules';

/**
 * Document fields the visitors service sets on visitor records (retention and the latest check-in
 * or check-out). It writes them through the data service's writer; member writes through the
 * document routes may not, or a visitor could postpone its own erasure.
 */
export const SERVER_SET_DOCUMENT_FIELDS: ReadonlySet<string> = new Set(['deleteOn', 'deleteOnPreference', 'latestEventType', 'latestEventAt']);

/**
 * Names a type schema may not give a field: the server-owned fields, `access` (row-level security,
 * not document data) and the server-set ones above. A schema naming them would validate values
 * that clients cannot write or that the schema does not govern.
 */
export const RESERVED_SCHEMA_FIELD_NAMES: ReadonlySet<string> = new Set([...SYSTEM_FIELDS, 'access', ...SERVER_SET_DOCUMENT_FIELDS]);

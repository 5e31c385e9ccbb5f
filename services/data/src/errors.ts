import { errorCatalogue } from '@platform/kit';

/** The data service's errors; codes are stable, clients may switch on them. */
export const dataError = errorCatalogue({
  DATA_TYPE_NOT_FOUND: [404, 'Type not found'],
  DATA_ENTITY_NOT_FOUND: [404, 'Entity not found'],
  DATA_DUPLICATE_ID: [409, 'An entity with this id already exists'],
  DATA_REVISION_CONFLICT: [409, 'The entity changed since baseRevision; resolve the conflict and retry'],
  DATA_LOCAL_ONLY_TYPE: [409, 'This type is localOnly: its entities live only on clients and are never sent to the server'],
  DATA_INVALID_MODIFIER: [400, 'Invalid modifier'],
  DATA_SCHEMA_VIOLATION: [400, 'The document does not match its type schema'],
  DATA_VALIDATION_TOO_SLOW: [422, 'Validating the document against its type schema took longer than the server allows'],
  DATA_DOCUMENT_TOO_LARGE: [400, 'The document would be larger than the server stores'],
  DATA_ARRAY_TOO_LONG: [400, 'An array of the document would be longer than the server stores'],
  DATA_TYPE_SCHEMA_INVALID: [400, "The type's stored schema is not valid; change the type schema"],
  DATA_TOO_MANY_TYPES_TO_DECLARE: [400, 'The project has more readable types than one declarations file holds; name the types with ?types='],
  DATA_SAMPLE_DATA_TOO_LARGE: [400, 'The sample documents would be larger than one answer may be; ask for fewer'],
  DATA_FORBIDDEN: [403, 'You may not do this to this entity'],
  DATA_NO_DEFAULT_ACCESS: [400, 'The type has no defaultAccess to reset to'],
  DATA_TYPE_DELETED: [409, 'A deleted type has this id; restore it instead of creating it again'],
  DATA_TYPE_NOT_DELETED: [409, 'The type is not deleted'],
  AI_NOT_CONFIGURED: [503, 'AI is not configured on this server'],
  AI_PROVIDER_ERROR: [502, 'The AI provider failed'],
  AI_PROVIDER_TIMEOUT: [504, 'The AI provider did not answer in time'],
  AI_EXTRACT_INVALID: [400, "The model's answer does not match the type schema"],
  AI_TYPE_HAS_NO_SCHEMA: [400, 'The type has no schema fields to extract into'],
  AI_SOURCE_NOT_TEXT: [400, 'The source field of the document is not text'],
});

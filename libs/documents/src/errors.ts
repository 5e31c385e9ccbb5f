import { errorCatalogue } from '@platform/kit';

/** The document domain's errors (the data service answers them, and so does any service writing documents); codes are stable, clients may switch on them. */
export const documentErrorEntries = {
  DATA_TYPE_NOT_FOUND: [404, 'Type not found'],
  DATA_ENTITY_NOT_FOUND: [404, 'Entity not found'],
  DATA_DUPLICATE_ID: [409, 'An entity with this id already exists'],
  DATA_REVISION_CONFLICT: [409, 'The entity changed since baseRevision; resolve the conflict and retry'],
  DATA_LOCAL_ONLY_TYPE: [409, 'This type is localOnly: its entities live only on clients and are never sent to the server'],
  DATA_INVALID_MODIFIER: [400, 'Invalid modifier'],
  DATA_INVALID_ACCESS: [400, 'An access rule holds an unknown operation or key, or a value of the wrong kind'],
  DATA_SCHEMA_VIOLATION: [400, 'The document does not match its type schema'],
  DATA_VALIDATION_TOO_SLOW: [422, 'Validating the document against its type schema took longer than the server allows'],
  DATA_DOCUMENT_TOO_LARGE: [400, 'The document would be larger than the server stores'],
  DATA_ARRAY_TOO_LONG: [400, 'An array of the document would be longer than the server stores'],
  DATA_ARRAY_GROWTH_TOO_LARGE: [400, "A modifier would add more array elements past the arrays' ends than the server allows at once"],
  DATA_DOCUMENT_TOO_DEEP: [400, 'The document would nest deeper than the server stores'],
  DATA_NUMBER_OUT_OF_RANGE: [400, 'A number of the document would not fit a double (an $inc or $mul past its range)'],
  DATA_TYPE_SCHEMA_INVALID: [400, "The type's stored schema is not valid; change the type schema"],
  DATA_FORBIDDEN: [403, 'You may not do this to this entity'],
  DATA_NO_DEFAULT_ACCESS: [400, 'The type has no defaultAccess to reset to'],
  DATA_TYPE_DELETED: [409, 'A deleted type has this id; restore it instead of creating it again'],
  DATA_TYPE_NOT_DELETED: [409, 'The type is not deleted'],
} satisfies Record<string, [status: number, message: string]>;

export const documentError = errorCatalogue(documentErrorEntries);

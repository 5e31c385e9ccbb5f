import { documentErrorEntries } from '@platform/documents';
import { errorCatalogue } from '@platform/kit';

/** The data service's errors: the document domain's, and those of its own routes; codes are stable, clients may switch on them. */
export const dataError = errorCatalogue({
  ...documentErrorEntries,
  DATA_TOO_MANY_TYPES_TO_DECLARE: [400, 'The project has more readable types than one declarations file holds; name the types with ?types='],
  DATA_REVISION_AHEAD: [400, "The revision asked for is ahead of the entity's revision"],
  DATA_SAMPLE_DATA_TOO_LARGE: [400, 'The sample documents would be larger than one answer may be; ask for fewer'],
  DATA_SAMPLE_SCHEMA_TOO_COMPLEX: [400, 'Sizing or generating sample documents of this type takes more work than one request may spend; simplify the schema or ask for fewer'],
  DATA_SAMPLE_DATA_INVALID: [400, 'No generated sample document satisfies the type schema; the error names the field'],
  AI_NOT_CONFIGURED: [501, 'AI is not configured on this server'],
  AI_PROVIDER_ERROR: [502, 'The AI provider failed'],
  AI_PROVIDER_TIMEOUT: [504, 'The AI provider did not answer in time'],
  AI_RATE_LIMITED: [429, 'Too many AI requests: try again later'],
  AI_BUDGETS_UNAVAILABLE: [503, 'AI calls cannot be counted right now (the key-value store does not answer): try again shortly'],
  AI_EXTRACT_INVALID: [400, "The model's answer does not match the type schema"],
  AI_TYPE_HAS_NO_SCHEMA: [400, 'The type has no schema fields to extract into'],
  AI_SOURCE_NOT_TEXT: [400, 'The source field of the document is not text'],
});

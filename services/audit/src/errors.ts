import { errorCatalogue } from '@platform/kit';

/** The audit service's errors; codes are stable, clients may switch on them. */
export const auditError = errorCatalogue({
  AUDIT_INVALID_RANGE: [400, 'Invalid from: the range start is after its end (to)'],
});

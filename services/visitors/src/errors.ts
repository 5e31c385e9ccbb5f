import { errorCatalogue } from '@platform/kit';

/** The visitors service's errors; codes are stable, clients may switch on them. */
export const visitorsError = errorCatalogue({
  VISITORS_INVALID_COLLECTION: [400, 'collectionName is not a visitor or visitor-event type of this project'],
  VISITORS_INVALID_DATA: [400, 'Invalid data'],
  VISITORS_DATA_TOO_LARGE: [413, 'data is larger than a public caller may store in one record'],
  VISITORS_VALIDATION_TOO_SLOW: [422, 'Validating the record against its type schema took longer than the server allows'],
  VISITORS_INVALID_DELETION_PERIOD: [400, 'deletionPeriod is not one of the check-in widget\'s deletion periods'],
  VISITORS_NOT_FOUND: [404, 'Visitor not found'],
  VISITORS_KIOSK_NOT_FOUND: [404, 'No application of this project with a CheckIn widget that names a visitor type'],
  VISITORS_FORBIDDEN: [403, 'You may not do this to this visitor'],
  VISITORS_RATE_LIMITED: [429, 'Too many visitor requests; try again shortly'],
  VISITORS_QUOTA_EXCEEDED: [429, 'This kiosk has stored as many visitor records and events as it may today; try again tomorrow'],
  VISITORS_BUSY: [503, 'The visitor is being changed by someone else; try again'],
});

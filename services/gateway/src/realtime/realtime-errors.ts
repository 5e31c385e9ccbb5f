import { errorCatalogue } from '@platform/kit';

/** The realtime channel's errors; codes are stable, clients may switch on them. */
export const realtimeError = errorCatalogue({
  REALTIME_DISABLED: [503, 'Realtime notifications are disabled on this server; poll instead'],
  REALTIME_TOKEN_INVALID: [401, 'Missing, invalid or expired realtime token, or its session has ended; get a fresh one from /api/realtime/token'],
  REALTIME_SESSION_STORE_UNAVAILABLE: [503, 'Sessions cannot be checked right now; try again shortly'],
});

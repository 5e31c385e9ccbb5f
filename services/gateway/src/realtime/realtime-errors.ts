import { errorCatalogue } from '@platform/kit';

/** The realtime channel's errors; codes are stable, clients may switch on them. */
export const realtimeError = errorCatalogue({
  REALTIME_DISABLED: [503, 'Realtime notifications are disabled on this server; poll instead'],
  REALTIME_TOKEN_INVALID: [401, 'Missing, invalid or expired realtime token, or its session has ended; get a fresh one from /api/realtime/token'],
  REALTIME_SESSION_STORE_UNAVAILABLE: [503, 'Sessions cannot be checked right now; try again shortly'],
  REALTIME_TOO_MANY_STREAMS_PER_USER: [429, 'Too many realtime streams are open for this account; close one (another tab or device) or try again after Retry-After'],
  REALTIME_TOO_MANY_STREAMS_PER_ADDRESS: [429, 'Too many realtime streams are open from this address; try again after Retry-After'],
  REALTIME_TOO_MANY_STREAMS: [429, 'This server has as many realtime streams open as it takes; poll meanwhile and try again after Retry-After'],
});

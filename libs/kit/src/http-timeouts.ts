import { z } from 'zod';
import { ConfigError } from './config';

/** How long a client may take to deliver a request, and how long a connection may sit idle. */
export interface HttpTimeouts {
  /** Until the request's headers are complete (Node's `headersTimeout`). */
  headersMs: number;
  /** Until the whole request, body included, has arrived (`requestTimeout`); the response is not limited. */
  requestMs: number;
  /** A socket with no traffic either way for this long is closed (`connectionTimeout`). */
  idleMs: number;
}

const milliseconds = z.coerce.number().int().min(100).max(3_600_000);

/**
 * The variables that set the HTTP timeouts, for a process's environment schema. The idle limit
 * stays above the longest quiet response (an AI call waits up to 60 s; realtime streams write
 * every 15 s).
 */
export const httpTimeoutsEnvSchema = z.object({
  HTTP_HEADERS_TIMEOUT_MS: milliseconds.default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
  HTTP_IDLE_TIMEOUT_MS: milliseconds.default(120_000),
});

/** The timeouts from parsed variables; the headers' limit may not exceed the whole request's (Node refuses it). */
export function httpTimeoutsFrom(env: z.output<typeof httpTimeoutsEnvSchema>): HttpTimeouts {
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError([`HTTP_HEADERS_TIMEOUT_MS: may not exceed HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS})`]);
  }
  return { headersMs: env.HTTP_HEADERS_TIMEOUT_MS, requestMs: env.HTTP_REQUEST_TIMEOUT_MS, idleMs: env.HTTP_IDLE_TIMEOUT_MS };
}

export const defaultHttpTimeouts: HttpTimeouts = httpTimeoutsFrom(httpTimeoutsEnvSchema.parse({}));

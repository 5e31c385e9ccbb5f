import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

/** Pretty lines for a person at a terminal in development; JSON for everything else (collectors, files, pipes). */
function prettyByDefault(): boolean {
  return process.env.NODE_ENV !== 'production' && process.stdout.isTTY === true;
}

/**
 * Logs with the service name on every line; a request's logger inside a recorded trace carries
 * `trace_id`/`span_id` (request-telemetry.ts), as do the lines the trace's other work writes with
 * `traceLogFields`. Secrets in headers are redacted (credential query parameters are redacted where the
 * access line is written, in app.ts). JSON on standard output, pretty-printed with pino-pretty
 * when `pretty` (default: a terminal outside production). Tests give a destination to read lines.
 */
export function createLogger(options: { level?: string; name?: string; destination?: DestinationStream; pretty?: boolean } = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    name: options.name,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-platform-principal"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  };
  const usePretty = options.pretty ?? (options.destination === undefined && prettyByDefault());
  if (usePretty) return pino(settings, pretty({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', ...(options.destination ? { destination: options.destination } : {}) }));
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

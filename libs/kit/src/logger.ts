import { activeTraceIds } from '@platform/telemetry';
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

/** Pretty lines for a person at a terminal in development; JSON for everything else (collectors, files, pipes). */
function prettyByDefault(): boolean {
  return process.env.NODE_ENV !== 'production' && process.stdout.isTTY === true;
}

/**
 * Logs with the service name on every line, and `trace_id`/`span_id` on every line written inside
 * a trace; secrets in headers are redacted (credential query parameters are redacted where the
 * access line is written, in app.ts). JSON on standard output, pretty-printed with pino-pretty
 * when `pretty` (default: a terminal outside production). Tests give a destination to read lines.
 */
export function createLogger(options: { level?: string; name?: string; destination?: DestinationStream; pretty?: boolean } = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    name: options.name,
    mixin: activeTraceIds,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-platform-principal"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  };
  const usePretty = options.pretty ?? (options.destination === undefined && prettyByDefault());
  if (usePretty) return pino(settings, pretty({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', ...(options.destination ? { destination: options.destination } : {}) }));
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

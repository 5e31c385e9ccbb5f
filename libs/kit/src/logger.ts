import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * JSON logs with the service name on every line; secrets in headers are redacted (credential query
 * parameters are redacted where the access line is written, in app.ts). Standard output unless a
 * destination is given (tests read the lines).
 */
export function createLogger(options: { level?: string; name?: string; destination?: DestinationStream } = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    name: options.name,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-platform-principal"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

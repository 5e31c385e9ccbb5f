import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** JSON logs with the service name on every line; secrets in headers are redacted. */
export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({
    level: options.level ?? 'info',
    name: options.name,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-platform-principal"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  });
}

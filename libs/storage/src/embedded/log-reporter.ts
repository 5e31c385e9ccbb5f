/**
 * Where an embedded log reports trouble: `warn` for trouble it gets over by itself (a compaction
 * that failed and is tried again later), `error` for trouble that stops its writes until the
 * process restarts. The platform's pino logger fits; without one, the lines go to stderr, since
 * a store that stops taking writes must never do so silently.
 */
export interface LogReporter {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export const stderrReporter: LogReporter = {
  warn: (fields, message) => console.warn(message, fields),
  error: (fields, message) => console.error(message, fields),
};

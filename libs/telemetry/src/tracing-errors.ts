/** Where tracing's own errors are written: the process's logger. */
export interface WarningLog {
  warn(fields: object, message: string): void;
}

/** After a line, how long further errors are only counted. */
const QUIET_MS = 60_000;

/**
 * OpenTelemetry's own errors (an export the collector refused or did not answer in time, spans
 * dropped from a full queue) as warning lines: the SDK hands them to a diagnostic logger nobody
 * registers, so a collector that is down went unnoticed. The first at once, then at most one a
 * minute with how many came meanwhile; platform_trace_spans_total counts the spans involved.
 */
export function tracingErrorReporter(log: WarningLog, clock: () => number = Date.now): (error: unknown) => void {
  let quietUntil = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return (error) => {
    const now = clock();
    if (now < quietUntil) {
      suppressed += 1;
      return;
    }
    log.warn({ err: error, ...(suppressed > 0 ? { suppressed } : {}) }, 'trace export failed; spans are missing from the trace backend (platform_trace_spans_total)');
    suppressed = 0;
    quietUntil = now + QUIET_MS;
  };
}

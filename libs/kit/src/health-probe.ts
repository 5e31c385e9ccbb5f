/**
 * Whether `url` is a health probe: `/api/health`, or the gateway's `/api/health/{service}`. The
 * gateway's monitor probes every service every 2 s and orchestrators probe too, so traces and
 * access lines treat a probe as routine (request-telemetry.ts, app.ts).
 */
export function isHealthProbePath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path === '/api/health' || path.startsWith('/api/health/');
}

/**
 * How long a webhook receiver's Retry-After asks us to wait, in ms (RFC 9110 §10.2.3): either
 * delay-seconds or an HTTP-date, which is read against `now` (a date passed waits nothing).
 * Anything else is ignored: the block's own backoff applies.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  const given = value?.trim();
  if (!given) return undefined;
  if (/^\d{1,9}$/.test(given)) return Number(given) * 1000;
  // Date.parse takes many forms the standard does not allow (ISO 8601, "Dec 06 2026"); an HTTP-date names its weekday and GMT.
  if (!/^[A-Za-z]{3},? .+ GMT$/.test(given)) return undefined;
  const at = Date.parse(given);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Gateways note a use at most every 5 minutes (SESSION_USE_RESOLUTION_MS): nothing finer can be said. */
const RESOLUTION_MS = 5 * 60_000;

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 24 * 60 * 60_000],
  ['hour', 60 * 60_000],
  ['minute', 60_000],
];

/** "in the last 5 minutes", "2 hours ago", "3 days ago"; "never" for a session or token not used since it was made. */
export function lastUsed(at: number | null, now = Date.now()): string {
  if (at === null) return 'never';
  const ago = now - at;
  if (ago < RESOLUTION_MS) return 'in the last 5 minutes';
  const [unit, size] = UNITS.find(([, length]) => ago >= length) ?? UNITS.at(-1)!;
  return new Intl.RelativeTimeFormat('en', { numeric: 'always' }).format(-Math.floor(ago / size), unit);
}

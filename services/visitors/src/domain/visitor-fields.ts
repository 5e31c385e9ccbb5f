/**
 * Fields of a visitor that only the server writes: the check-in form hides them, and a value a
 * client sends for them is ignored (dropped), never stored.
 */
export const INTERNAL_VISITOR_FIELDS = ['latestEventType', 'latestEventAt', 'deleteOn', 'deleteOnPreference'] as const;

/** Fields of a visitor event that the server sets from the route, ignored from clients. */
export const SERVER_EVENT_FIELDS = ['visitorId', 'timestamp'] as const;

export const EVENT_TYPES = ['checkIn', 'checkOut'] as const;
export type VisitorEventType = (typeof EVENT_TYPES)[number];

/** A client's data without the fields the server owns, and the names of those it dropped. */
export function withoutServerFields(data: Record<string, unknown>, owned: readonly string[]): { fields: Record<string, unknown>; ignored: string[] } {
  const fields: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (owned.includes(key)) ignored.push(key);
    else fields[key] = value;
  }
  return { fields, ignored };
}

/** The spec's cap on `recentProjects`; the oldest entries are evicted first. */
export const RECENT_PROJECTS_CAP = 50;

/**
 * The whole new `recentProjects` map after opening `projectId` at `at`: newest first (ties by
 * id, so the result is deterministic), capped. Callers write it as one value.
 */
export function touchRecentProject(current: Record<string, number>, projectId: string, at: number): Record<string, number> {
  const entries = Object.entries({ ...current, [projectId]: at });
  entries.sort(([idA, timeA], [idB, timeB]) => timeB - timeA || (idA < idB ? -1 : idA > idB ? 1 : 0));
  return Object.fromEntries(entries.slice(0, RECENT_PROJECTS_CAP));
}

/** How the nightly retention job runs on kit's ClusterSchedule: once per occurrence across replicas. */
export const RETENTION_SCHEDULE = { name: 'visitor retention', lockPrefix: 'visitors:retention' } as const;

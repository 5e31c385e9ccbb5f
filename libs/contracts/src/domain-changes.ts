import { z } from 'zod';

/** Where a domain points: an application, pinned to one of its versions or following its latest publish (`versionId` null). */
export const domainTargetSchema = z.object({
  applicationId: z.string().min(1),
  versionId: z.string().min(1).nullable(),
  /** The pinned version's number (absent when following the latest publish, or for a version that is gone). */
  versionNumber: z.number().int().min(1).optional(),
});
export type DomainTarget = z.infer<typeof domainTargetSchema>;

/**
 * The publishing service publishes `platform.domains.<projectId>.changed` (message id
 * `domain-change:<projectId>/<domainId>/<revision>`) for every change of a project's domain made
 * by a user: added, its hostname changed, pointed at an application or a version of one,
 * verified, removed. The audit trail keeps one item per change, so "who put version 3 live on
 * shop.example.com, and when?" has an answer.
 */
export const domainChangeSchema = z.object({
  projectId: z.string().min(1),
  domainId: z.string().min(1),
  /** The domain's revision after the change (one past its last for a removal). */
  revision: z.number().int().min(0),
  /** The hostname after the change (the one removed, for a removal). */
  hostname: z.string().min(1),
  change: z.enum(['created', 'renamed', 'assigned', 'verified', 'removed']),
  /** Renamed: the hostname before. */
  previousHostname: z.string().min(1).optional(),
  /** Where it points after the change (absent: nowhere). */
  target: domainTargetSchema.optional(),
  /** Assigned: where it pointed before (absent: nowhere). */
  previousTarget: domainTargetSchema.optional(),
  changedBy: z.string().min(1),
  timestamp: z.number(),
});
export type DomainChange = z.infer<typeof domainChangeSchema>;

export const DOMAIN_CHANGES_FILTER = 'platform.domains.*.changed';

export function domainChangeSubject(projectId: string): string {
  return `platform.domains.${projectId}.changed`;
}

export function domainChangeMessageId(change: Pick<DomainChange, 'projectId' | 'domainId' | 'revision'>): string {
  return `domain-change:${change.projectId}/${change.domainId}/${change.revision}`;
}

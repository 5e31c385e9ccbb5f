/**
 * An ApplicationVersion as stored in `tenant-{projectId}-applications.versions`. `_attempt` marks
 * which publish inserted it, so a publish that loses after inserting removes only its own row.
 * `_settled` marks the row of a number the application took, once the publish whose patch landed
 * made it its own snapshot (VersionStore.settle): no other publish replaces or removes it.
 */
export interface StoredVersion {
  id: string;
  applicationId: string;
  versionNumber: number;
  publishedBy: string;
  title: Record<string, string>;
  routes: unknown[];
  serverConfiguration: Record<string, unknown>;
  createdAt: number;
  _attempt: string;
  _settled?: true;
  [field: string]: unknown;
}

/** The application fields a publish reads. */
export interface PublishableApplication {
  id: string;
  revision: number;
  title?: unknown;
  routes?: unknown;
  serverConfiguration?: unknown;
  publishedVersionNumber?: number;
}

/** `{appId}:{versionNumber}`: one id per number, so the store's id key refuses a second version N. */
export function versionId(applicationId: string, versionNumber: number): string {
  return `${applicationId}:${versionNumber}`;
}

/** Publish rule 1: (publishedVersionNumber, or 0 when unset) + 1. */
export function nextVersionNumber(application: PublishableApplication): number {
  return (application.publishedVersionNumber ?? 0) + 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The immutable snapshot of an application: its title, routes and server configuration now. */
export function snapshot(
  application: PublishableApplication,
  options: { publishedBy: string; now: number; attempt: string },
): StoredVersion {
  const versionNumber = nextVersionNumber(application);
  return {
    id: versionId(application.id, versionNumber),
    applicationId: application.id,
    versionNumber,
    publishedBy: options.publishedBy,
    title: isRecord(application.title) ? (application.title as Record<string, string>) : {},
    routes: Array.isArray(application.routes) ? application.routes : [],
    serverConfiguration: isRecord(application.serverConfiguration) ? application.serverConfiguration : {},
    createdAt: options.now,
    _attempt: options.attempt,
  };
}

/** A version for project members: every field except internal `_` ones. */
export function memberView(version: StoredVersion) {
  return { ...listView(version), routes: version.routes, serverConfiguration: version.serverConfiguration };
}

/** Publish rule 3: the list leaves out the heavy `routes` and `serverConfiguration`. */
export function listView(version: StoredVersion) {
  return { id: version.id, applicationId: version.applicationId, versionNumber: version.versionNumber, publishedBy: version.publishedBy, title: version.title, createdAt: version.createdAt };
}

/** What anonymous callers see of a version: never `serverConfiguration`, nor who published it. */
export function publicVersionView(version: StoredVersion) {
  return { id: version.id, applicationId: version.applicationId, versionNumber: version.versionNumber, title: version.title, routes: version.routes, createdAt: version.createdAt };
}

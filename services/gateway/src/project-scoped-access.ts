import { AppError } from '@platform/kit';
import { hasDotSegment } from './dot-segments';

/** The project a path is about (`/api/projects/{id}/...`, the realtime stream of one), if any. */
const PROJECT_PATH = /^\/api\/(?:realtime\/)?projects\/([^/]+)(?:\/|$)/;
/** What needs no project: reading who the token acts for, signing the token's use out, a realtime token, and what needs no account. */
const ACCOUNT_READS = /^\/api\/(?:me|realtime\/token)$/;
const OPEN = /^\/api\/(?:auth\/logout|health|public|help|schemas|openapi\.json|docs)(?:\/|$)/;

/**
 * Whether an access token made for `projectIds` only may send this request: the routes of those
 * projects (whose services check the scope again, kit's ProjectAccess), `GET /api/me`, a realtime
 * token, and what needs no account. Listing, creating or finding other projects, tenants, other
 * users and the account's own settings are not for it.
 */
export function openToProjectScope(method: string, path: string, projectIds: readonly string[]): boolean {
  if (hasDotSegment(path)) return false;
  const projectId = PROJECT_PATH.exec(path)?.[1];
  if (projectId !== undefined) return projectIds.includes(decodedOrSelf(projectId));
  if (ACCOUNT_READS.test(path)) return method === 'GET' || method === 'HEAD';
  return OPEN.test(path);
}

function decodedOrSelf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const projectScopeRefusal = (): AppError => new AppError(403, 'GATEWAY_TOKEN_PROJECT_SCOPED', 'This access token is for some projects only: it cannot reach this');

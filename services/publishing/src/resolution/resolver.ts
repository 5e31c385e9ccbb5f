import { findLiveProject } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import { isVerified } from '../domain/claim';
import { publicVersionView } from '../domain/versions';
import type { ApplicationReader } from '../stores/applications';
import type { DomainStore } from '../stores/domains';
import type { VersionStore } from '../stores/versions';

export interface PublicResolution {
  hostname: string;
  projectId: string;
  applicationId: string;
  /** True when the domain is pinned to this version; false when it serves the latest. */
  pinned: boolean;
  version: ReturnType<typeof publicVersionView>;
}

export type Resolution =
  /** `json` is the body serialized once, so a cached answer costs no serialization per request. */
  | { found: true; projectId: string; applicationId: string; json: string }
  | { found: false; projectId?: string; applicationId?: string; code: 'PUBLISHING_DOMAIN_NOT_FOUND' | 'PUBLISHING_NOTHING_PUBLISHED' };

/**
 * Versioning 3: a verified domain serves its pinned version, else the application's latest
 * published one. Answers only the public view of the version (no serverConfiguration). A deleted
 * project's domains resolve like none: they keep their claim, for a restore, but serve nothing.
 */
export class DomainResolver {
  constructor(
    private readonly domains: DomainStore,
    private readonly applications: ApplicationReader,
    private readonly versions: VersionStore,
    private readonly store: DocumentStore,
  ) {}

  async resolve(hostname: string): Promise<Resolution> {
    const domain = await this.domains.byHostname(hostname);
    // An unverified claim proves nothing about who controls the hostname: it resolves like none.
    if (!domain || !isVerified(domain)) return { found: false, code: 'PUBLISHING_DOMAIN_NOT_FOUND' };
    const { projectId, targetId } = domain;
    if (!(await findLiveProject(this.store, projectId))) return { found: false, code: 'PUBLISHING_DOMAIN_NOT_FOUND' };
    if (!targetId) return { found: false, projectId, code: 'PUBLISHING_NOTHING_PUBLISHED' };
    const nothing = { found: false, projectId, applicationId: targetId, code: 'PUBLISHING_NOTHING_PUBLISHED' } as const;
    const application = await this.applications.live(projectId, targetId);
    const versionId = domain.targetVersionId ?? application?.publishedVersionId;
    if (!application || !versionId) return nothing;
    const version = await this.versions.find(projectId, versionId);
    if (!version || version.applicationId !== targetId) return nothing;
    const body: PublicResolution = { hostname, projectId, applicationId: targetId, pinned: domain.targetVersionId !== undefined, version: publicVersionView(version) };
    return { found: true, projectId, applicationId: targetId, json: JSON.stringify(body) };
  }
}

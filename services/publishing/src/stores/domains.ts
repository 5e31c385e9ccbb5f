import { DuplicateKeyError, type DocumentStore, type UpdateModifier } from '@platform/storage';
import { verifiedModifier, type ClaimFields } from '../domain/claim';
import { publishingError } from '../errors';

/**
 * Domains of every project in one collection, so the unique index on `hostname` makes a hostname
 * belong to one domain of one project platform-wide, and resolution finds it with one lookup.
 */
export const DOMAINS_COLLECTION = 'project-domains';

export interface StoredDomain extends ClaimFields {
  id: string;
  projectId: string;
  hostname: string;
  targetType?: 'application';
  targetId?: string;
  targetVersionId?: string;
  revision: number;
  createdAt: number;
  updatedAt: number;
  [field: string]: unknown;
}

function hostnameTaken(error: unknown): unknown {
  return error instanceof DuplicateKeyError ? publishingError('PUBLISHING_HOSTNAME_TAKEN') : error;
}

export class DomainStore {
  constructor(private readonly store: DocumentStore) {}

  private get domains() {
    return this.store.collection<StoredDomain>(DOMAINS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.domains.ensureIndex({ keys: { hostname: 1 }, unique: true });
    await this.domains.ensureIndex({ keys: { projectId: 1, hostname: 1 } });
  }

  async list(projectId: string): Promise<StoredDomain[]> {
    return this.domains.find({ projectId }, { sort: { hostname: 1 } });
  }

  /** Erases a purged project's domains, releasing their hostnames; answers them. */
  async eraseProject(projectId: string): Promise<StoredDomain[]> {
    const domains = await this.list(projectId);
    await this.domains.deleteMany({ projectId });
    return domains;
  }

  /** The project's domain, or 404 (a domain of another project is not found either). */
  async require(projectId: string, id: string): Promise<StoredDomain> {
    const domain = await this.domains.findOne({ id, projectId });
    if (!domain) throw publishingError('PUBLISHING_DOMAIN_NOT_FOUND');
    return domain;
  }

  async byHostname(hostname: string): Promise<StoredDomain | null> {
    return this.domains.findOne({ hostname });
  }

  /** Inserts the domain; 409 when a domain of any project holds the hostname (verified, or pending and unexpired). */
  async create(domain: StoredDomain, now: number): Promise<void> {
    await this.claiming(domain.hostname, now, () => this.domains.insertOne(domain));
  }

  /**
   * Applies a modifier that keeps the hostname, only if the domain is still at `revision` (the one
   * the change was decided on); null when it changed or is gone meanwhile.
   */
  async updateAt(projectId: string, id: string, revision: number, modifier: UpdateModifier): Promise<StoredDomain | null> {
    return this.domains.updateOne({ id, projectId, revision }, modifier);
  }

  /**
   * Applies a modifier that sets `hostname`, only if the domain is still at `revision`; null when
   * it changed or is gone meanwhile, 409 when the hostname is held.
   */
  async renameAt(projectId: string, id: string, revision: number, hostname: string, modifier: UpdateModifier, now: number): Promise<StoredDomain | null> {
    return this.claiming(hostname, now, () => this.domains.updateOne({ id, projectId, revision }, modifier));
  }

  /**
   * Marks the claim verified, only if the domain still has the hostname and token that were
   * checked (a rename in between starts a new claim that this check proved nothing about).
   */
  async markVerified(domain: StoredDomain, now: number): Promise<StoredDomain | null> {
    const { id, projectId, hostname, verificationToken } = domain;
    return this.domains.updateOne({ id, projectId, hostname, verificationToken }, verifiedModifier(now));
  }

  /**
   * Removes another project's unverified claim that a takeover by DNS proved this project may
   * replace, only while it is still the claim that was checked (same token: not verified, renamed
   * or replaced since); false when it is not. Of concurrent takers exactly one removes it.
   */
  async removeUnverifiedClaim(id: string, hostname: string, verificationToken: string): Promise<boolean> {
    return (await this.domains.deleteMany({ id, hostname, verificationToken })) > 0;
  }

  /** Removes the domain, only if it is still at `revision` (the state answered and recorded); false when it changed or is gone. */
  async removeAt(projectId: string, id: string, revision: number): Promise<boolean> {
    return (await this.domains.deleteMany({ id, projectId, revision })) > 0;
  }

  /**
   * Runs a write that gives a domain `hostname`. When the unique index refuses it, an expired
   * pending claim on the hostname (of any project) is removed and the write tried once more; the
   * conditional delete lets exactly one of several concurrent claimers take the hostname.
   */
  private async claiming<T>(hostname: string, now: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const released = await this.domains.deleteMany({ hostname, verificationToken: { $exists: true }, verificationExpiresAt: { $lte: now } });
    if (released === 0) throw publishingError('PUBLISHING_HOSTNAME_TAKEN');
    return write().catch((error: unknown) => {
      throw hostnameTaken(error);
    });
  }
}

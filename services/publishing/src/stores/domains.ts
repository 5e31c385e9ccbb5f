import { DuplicateKeyError, type DocumentStore, type UpdateModifier } from '@platform/storage';
import { publishingError } from '../errors';

/**
 * Domains of every project in one collection, so the unique index on `hostname` makes a hostname
 * belong to one domain of one project platform-wide, and resolution finds it with one lookup.
 */
export const DOMAINS_COLLECTION = 'project-domains';

export interface StoredDomain {
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

  /** The project's domain, or 404 (a domain of another project is not found either). */
  async require(projectId: string, id: string): Promise<StoredDomain> {
    const domain = await this.domains.findOne({ id, projectId });
    if (!domain) throw publishingError('PUBLISHING_DOMAIN_NOT_FOUND');
    return domain;
  }

  async byHostname(hostname: string): Promise<StoredDomain | null> {
    return this.domains.findOne({ hostname });
  }

  /** Inserts the domain; 409 when any project already has the hostname. */
  async create(domain: StoredDomain): Promise<void> {
    await this.domains.insertOne(domain).catch((error: unknown) => {
      throw hostnameTaken(error);
    });
  }

  /** Applies the modifier to the project's domain; 404 when it is gone, 409 on a taken hostname. */
  async update(projectId: string, id: string, modifier: UpdateModifier): Promise<StoredDomain> {
    const updated = await this.domains.updateOne({ id, projectId }, modifier).catch((error: unknown) => {
      throw hostnameTaken(error);
    });
    if (!updated) throw publishingError('PUBLISHING_DOMAIN_NOT_FOUND');
    return updated;
  }

  async remove(projectId: string, id: string): Promise<boolean> {
    return (await this.domains.deleteMany({ id, projectId })) > 0;
  }
}

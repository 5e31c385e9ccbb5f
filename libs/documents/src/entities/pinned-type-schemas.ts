import { LRUCache } from 'lru-cache';
import { pinTypeSchema } from '../domain/schema-validator';
import type { StoredEntity } from './entity';

/** What tells one revision of a type from another; a type created again starts at revision 0 again, with another createdAt. */
type RevisionStamp = Pick<StoredEntity, 'id' | 'createdAt' | 'revision' | 'updatedAt'>;

/** As many types as the compiled validators the schema validator keeps. */
const MAX_PINNED_TYPES = 500;

/**
 * The schema of each type as last read, pinned (frozen, its validator found by identity), with the
 * revision it belongs to; a type without a schema is remembered as such. A read of that same
 * revision uses the pinned schema instead of its own copy, so validating a document neither
 * serializes the schema nor compiles it again; a read of any other revision pins its own schema
 * in its place.
 */
export class PinnedTypeSchemas {
  private readonly byType = new LRUCache<string, RevisionStamp & { schema: unknown }>({ max: MAX_PINNED_TYPES });

  /** The pinned schema of exactly this revision of the type (`schema` undefined: it has none), or undefined when none is pinned. */
  of(projectId: string, type: RevisionStamp): { schema: unknown } | undefined {
    const known = this.byType.get(`${projectId}/${type.id}`);
    const same = known && known.createdAt === type.createdAt && known.revision === type.revision && known.updatedAt === type.updatedAt;
    return same ? { schema: known.schema } : undefined;
  }

  /** Pins the schema of the type as read (frozen in place) for its revision, replacing the type's earlier revision. */
  pin<T extends RevisionStamp & { schema?: unknown }>(projectId: string, type: T): T {
    const { id, createdAt, revision, updatedAt } = type;
    this.byType.set(`${projectId}/${id}`, { id, createdAt, revision, updatedAt, schema: pinTypeSchema(type.schema) });
    return type;
  }
}

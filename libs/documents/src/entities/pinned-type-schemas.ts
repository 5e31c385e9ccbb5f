import { LRUCache } from 'lru-cache';
import { pinTypeSchema } from '../domain/schema-validator';
import type { StoredEntity } from './entity';

/** What tells one revision of a type from another; a type created again starts at revision 0 again, with another createdAt. */
type RevisionStamp = Pick<StoredEntity, 'createdAt' | 'revision' | 'updatedAt'>;

/** As many types as the compiled validators the schema validator keeps. */
const MAX_PINNED_TYPES = 500;

/**
 * The schema of each type as last read, pinned (frozen, its validator found by identity), with the
 * revision it belongs to. A read of that same revision hands out the pinned schema instead of its
 * own copy, so validating a document neither serializes the schema nor compiles it again; a read
 * of any other revision pins its own schema in its place.
 */
export class PinnedTypeSchemas {
  private readonly byType = new LRUCache<string, RevisionStamp & { schema: unknown }>({ max: MAX_PINNED_TYPES });

  /** The type as read, with the pinned schema of its revision. */
  current<T extends StoredEntity & { schema?: unknown }>(projectId: string, type: T): T {
    if (type.schema === undefined) return type;
    const key = `${projectId}/${type.id}`;
    const known = this.byType.get(key);
    if (known && known.createdAt === type.createdAt && known.revision === type.revision && known.updatedAt === type.updatedAt) return { ...type, schema: known.schema };
    const { createdAt, revision, updatedAt } = type;
    this.byType.set(key, { createdAt, revision, updatedAt, schema: pinTypeSchema(type.schema) });
    return type;
  }
}

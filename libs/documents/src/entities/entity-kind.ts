import type { Access } from '@platform/contracts';
import type { AppError, ProjectCaller } from '@platform/kit';
import type { z } from 'zod';
import type { DataDeps } from '../data-deps';
import type { EntityScope, StoredEntity } from './entity';

/** Who is asking, within the project: what a kind's own rules are decided on. */
export interface KindCaller {
  caller: ProjectCaller;
  /** The project's own access rules. */
  projectAccess: Access | undefined;
}

/** How one family of collections (documents of a type, types, applications) differs. */
export interface EntityKind<P extends z.ZodRawShape> {
  tag: string;
  /** What a created entity's body holds, for the API description (free JSON when absent). */
  bodyDescription?: string;
  /**
   * The fields a created entity's body holds, for the API description only (the kind's own
   * `validate` checks them, so its 400s keep their codes). Free JSON when absent.
   */
  bodySchema?: z.ZodType;
  basePath: string;
  params: z.ZodObject<P>;
  resolve(deps: DataDeps, params: z.infer<z.ZodObject<P>>, who: KindCaller): Promise<ResolvedKind>;
}

export interface ResolvedKind {
  scope: EntityScope;
  /**
   * Problems with an entity's fields as they would be stored (schema, record shape). Throws 403
   * when the caller may not store such an entity at all: it runs on the very state a create or
   * patch writes (the write is guarded by revision), so rules that depend on the result hold here.
   */
  validate(fields: Record<string, unknown>): Array<{ field: string; message: string }>;
  /** The validated fields as they are stored, when the kind normalizes them (a type's old-dialect schema becomes JSON Schema). */
  prepare?(fields: Record<string, unknown>): Record<string, unknown>;
  /** Throws 403 when a patch's modifier touches fields this caller may not change here (beyond the general modifier rules). */
  checkModifier?(modifier: unknown): void;
  /** Whether the caller may update this entity; the entity's own `update` rule when absent. */
  mayUpdate?(entity: StoredEntity): boolean;
  /** Whether the caller may delete this entity; the entity's own `delete` rule when absent. */
  mayDelete?(entity: StoredEntity): boolean;
  /** Throws when a client-chosen id may not be used (the insert still refuses any duplicate). */
  checkNewId?(id: string): Promise<void>;
  defaultAccess?: Access;
  /** Set when the collection refuses writes (localOnly types). */
  refuseWrites?: AppError;
  /** Top-level fields clients may not write here (another service owns them). */
  serverOwnedFields?: ReadonlySet<string>;
  /** Top-level fields holding a JSON Schema, where its `$` keywords are allowed (a type's `schema`). */
  jsonSchemaFields?: ReadonlySet<string>;
  /** Rules for a client-chosen id, when stricter than the general id pattern. */
  idSchema?: z.ZodType<string>;
}

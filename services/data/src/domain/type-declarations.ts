import { compile } from 'json-schema-to-typescript';
import type { JsonSchemaNode, TypeSchema } from '@platform/documents';
import { indentDeclarations } from './indent-declarations';

/** One type as its declaration is generated: its id, its name and its checked JSON Schema (none: any document). */
export interface DeclaredType {
  id: string;
  name: string;
  schema: TypeSchema | undefined;
}

/** The interface that maps each type id to its document interface. */
export const PROJECT_TYPES_INTERFACE = 'ProjectTypes';

/** A local reference of one type's schema, moved to where that schema sits in the combined one. */
function movedReference(typeId: string, reference: string): string {
  return `#/properties/${typeId}${reference.slice(1)}`;
}

function withMovedReferences(typeId: string, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => withMovedReferences(typeId, item));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? movedReference(typeId, value) : withMovedReferences(typeId, value)]),
  );
}

/**
 * One type's schema as a property of the combined schema: named by its id (json-schema-to-typescript
 * turns `my-notes` into `MyNotes`), described by its name, references moved along. A type without
 * a schema takes any document, so its interface takes any field.
 */
function declaredSchema({ id, name, schema }: DeclaredType): JsonSchemaNode {
  if (!schema) return { type: 'object', title: id, description: name, additionalProperties: true };
  const { $schema, title, description, ...rest } = withMovedReferences(id, schema) as TypeSchema;
  return { ...rest, title: id, description: [name, title, description].filter(Boolean).join('. ') };
}

/**
 * TypeScript declarations for a project's types: one interface per type (nested objects and `$defs`
 * become their own interfaces) and ProjectTypes mapping type ids to them. Fields a schema does not
 * name are left out unless it sets `additionalProperties`, so a misspelt field does not compile.
 * The schemas are the checked subset (local references only, no `tsType`-like keywords), so nothing
 * is fetched and nothing but types is generated; comments are escaped by the generator. The
 * generator's Prettier pass is off (its cost on a request path); the output is indented instead.
 */
export async function typeDeclarations(projectId: string, types: readonly DeclaredType[]): Promise<string> {
  const combined = {
    type: 'object',
    title: PROJECT_TYPES_INTERFACE,
    description: `The document types of project ${projectId}, by type id`,
    properties: Object.fromEntries(types.map((type) => [type.id, declaredSchema(type)])),
    required: types.map((type) => type.id),
    additionalProperties: false,
  };
  const declarations = await compile(combined as never, PROJECT_TYPES_INTERFACE, {
    bannerComment: `/* TypeScript declarations for the types of project ${projectId} you may read, generated from their JSON Schemas by GET /api/projects/${projectId}/types.d.ts. */`,
    additionalProperties: false,
    format: false,
    unreachableDefinitions: false,
    $refOptions: { resolve: { external: false } },
  });
  return indentDeclarations(declarations);
}

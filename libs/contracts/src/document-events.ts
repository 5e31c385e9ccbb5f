import { z } from 'zod';

export const changeKinds = ['created', 'updated', 'deleted'] as const;
export type ChangeKind = (typeof changeKinds)[number];

/**
 * A JSON object, passed through as it is: `z.record(z.string(), z.unknown())` would build a copy
 * of every key, and each consumer (audit, actions, the realtime notifier) parses every event.
 */
const jsonObject = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'expected an object');

/** One entry of a document's history (the spec's EventSource). */
export const eventSourceSchema = z.object({
  userId: z.string(),
  timestamp: z.number(),
  /** Revision before the change; -1 for the creation, whose result is revision 0. */
  baseRevision: z.number().int(),
  modifier: z.record(z.string(), jsonObject),
});
export type EventSource = z.infer<typeof eventSourceSchema>;

/**
 * The payload of `platform.docs.<projectId>.<typeId>.<kind>`, message id
 * `<collection>/<id>/<revision>`. `typeId` is `types` or `applications` for those collections.
 */
export const documentEventSchema = z.object({
  projectId: z.string(),
  typeId: z.string(),
  collection: z.string(),
  kind: z.enum(changeKinds),
  entityId: z.string(),
  revision: z.number().int(),
  change: eventSourceSchema,
  /**
   * How many writes made by actions led to this change (docs/actions.md, Loop guard): set by the
   * actions' update-database block on the write itself (its run's depth plus one), absent for a
   * write by a person. Server-internal: kept in the document's outbox entry and on the event only,
   * never in its history, its `change` or any answer.
   */
  actionDepth: z.number().int().min(1).optional(),
  /**
   * The chain of action writes this change belongs to (docs/actions.md, Loop guard): the id of the
   * event the person's write that started it published. Set beside `actionDepth` and as internal.
   */
  actionChain: z.string().min(1).max(1024).optional(),
  /** The entity after the change, without its history. */
  entity: jsonObject,
});
export type DocumentEvent = z.infer<typeof documentEventSchema>;

export function documentEventSubject(projectId: string, typeId: string, kind: ChangeKind): string {
  return `platform.docs.${projectId}.${typeId}.${kind}`;
}

export function documentEventId(collection: string, entityId: string, revision: number): string {
  return `${collection}/${entityId}/${revision}`;
}

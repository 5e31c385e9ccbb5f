import { accessSchema } from '@platform/contracts';
import { z } from 'zod';

export const triggerNames = ['documentCreated', 'documentUpdated', 'documentDeleted'] as const;
export type TriggerName = (typeof triggerNames)[number];

const localId = z.string().min(1).max(64);
const name = z.string().min(1).max(200);

/** A trigger's optional configuration: `typeId` limits it to documents of one type. */
export const triggerConfigurationSchema = z.strictObject({ typeId: z.string().min(1).max(64).optional() });

export const actionTriggerSchema = z.object({
  id: localId,
  triggerName: z.enum(triggerNames),
  configuration: triggerConfigurationSchema.optional(),
});

export const actionBlockSchema = z.object({
  id: localId,
  blockName: name,
  configuration: z.record(z.string(), z.unknown()).optional(),
});

export const actionConnectionSchema = z.object({
  sourceBlockId: localId,
  sourceSocketName: name,
  targetBlockId: localId,
  targetSocketName: name,
});

/** The body of POST and PUT: the spec's Action, checked for shape here and as a graph in graph.ts. */
export const actionBodySchema = z.object({
  title: z.string().trim().min(1, 'title is required').max(200),
  description: z.string().max(5_000).optional(),
  triggers: z.array(actionTriggerSchema).max(20).optional(),
  blocks: z.array(actionBlockSchema).max(100).optional(),
  connections: z.array(actionConnectionSchema).max(500).optional(),
  access: accessSchema.optional(),
});

export type ActionBody = z.infer<typeof actionBodySchema>;
export type ActionTrigger = z.infer<typeof actionTriggerSchema>;
export type ActionBlock = z.infer<typeof actionBlockSchema>;
export type ActionConnection = z.infer<typeof actionConnectionSchema>;

/** An action as stored: the body plus the project, the owner it runs as, and server fields. */
export interface StoredAction {
  [field: string]: unknown;
  id: string;
  projectId: string;
  title: string;
  description?: string;
  triggers: ActionTrigger[];
  blocks: ActionBlock[];
  connections: ActionConnection[];
  access?: z.infer<typeof accessSchema>;
  /** The user the action runs as: whoever saved it last (so nobody borrows another's rights). */
  ownerId: string;
  revision: number;
  createdAt: number;
  updatedAt: number;
  deletedAt?: number;
}

import { storedAccessSchema } from '@platform/contracts';
import { z } from 'zod';
import { RUN_STATUSES } from '../executor/run-store';
import { actionBlockSchema, actionBodySchema, actionConnectionSchema, actionTriggerSchema } from '../domain/action-schema';

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const id = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

export const projectParams = z.object({ projectId: id });
export const actionParams = projectParams.extend({ actionId: id });

export const manualRunBodySchema = z.object({
  typeId: id.describe('The type of the document to run the action on'),
  documentId: id.describe('The document: the action runs on its latest change (its deletion, for a deleted document), as that change\'s event would have run it'),
});

export const actionSchema = actionBodySchema.extend({
  id: z.string(),
  projectId: z.string(),
  triggers: z.array(actionTriggerSchema),
  blocks: z.array(actionBlockSchema),
  connections: z.array(actionConnectionSchema),
  ownerId: z.string().describe('The user the action runs as: whoever saved it last'),
  revision: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
  deletedAt: z.number().optional(),
  access: storedAccessSchema.optional(),
});

const runError = z.object({ code: z.string(), message: z.string() });

export const runSchema = z.object({
  id: z.string(),
  actionId: z.string(),
  eventId: z.string().describe('The document event: <collection>/<documentId>/<revision>'),
  triggerName: z.string(),
  typeId: z.string(),
  documentId: z.string(),
  depth: z.number().describe('How many action writes led to the event (0: a person wrote, or ran the action by hand)'),
  startedBy: z.string().optional().describe('The user who ran the action by hand on the document; absent on runs a document event triggered'),
  status: z.enum(RUN_STATUSES),
  changedAt: z
    .number()
    .optional()
    .describe('When the change that triggered the run was written (ms since the epoch): startedAt minus this is how long the run waited for its event. Absent on runs recorded before it was kept'),
  startedAt: z.number(),
  finishedAt: z.number().optional(),
  durationMs: z.number().optional(),
  error: runError.optional(),
  blocks: z.array(
    z.object({
      blockId: z.string(),
      blockName: z.string(),
      status: z.enum(['succeeded', 'failed', 'skipped']),
      startedAt: z.number(),
      durationMs: z.number(),
      summary: z.record(z.string(), z.unknown()).optional().describe('`{ redacted: true }` when the block involved a document the caller may not read'),
      error: runError.optional().describe('`ACTIONS_REDACTED` when the block involved a document the caller may not read'),
      reason: z.string().optional(),
    }),
  ),
});

import { documentsCollection, publicView, updateDocumentAs } from '@platform/documents';
import { AppError } from '@platform/kit';
import { z } from 'zod';
import { MAX_PLACEHOLDERS, placeholderCount, renderTemplate, type OutputBudget } from '../domain/templates';
import { runErrorCodes } from '../errors';
import { BlockError, eventData, settings, type BlockDefinition, type BlockRunContext } from './block';
import { TemplateBudget } from './template-budget';

const localId = z.string().min(1).max(64);

/**
 * The most a configured modifier may weigh, as UTF-8 bytes of its JSON: ample for the fields an
 * action sets (a large value comes in through a placeholder or the `modifier` socket), where the
 * request body's 1 MiB was the only bound before.
 */
export const MAX_MODIFIER_BYTES = 64 * 1024;

const configuration = z.strictObject({
  /** The type of the target document; the triggering document's type when absent. */
  typeId: localId.optional(),
  /** The target document; the triggering document when absent. */
  documentId: localId.optional(),
  /** An update modifier (`$set`, `$inc`, ...) with the same rules as a PATCH. */
  modifier: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .refine((modifier) => Buffer.byteLength(JSON.stringify(modifier)) <= MAX_MODIFIER_BYTES, `may be at most ${MAX_MODIFIER_BYTES} bytes of JSON`)
    .refine((modifier) => placeholderCount(modifier) <= MAX_PLACEHOLDERS, `may hold at most ${MAX_PLACEHOLDERS} placeholders in its values`)
    .optional(),
  /** Apply only while the target is at this revision; see docs/actions.md for the default. */
  baseRevision: z.number().int().min(0).optional(),
});

/**
 * Applies a modifier to a document through the data service's own rules and write path
 * (`updateDocumentAs`): RLS as the action's owner, modifier and schema rules, history, events.
 * baseRevision, when not configured, is the revision the trigger saw for the triggering document
 * (plus this run's own writes), so a change made by someone after the event is never overwritten
 * blindly: the block fails with the conflict instead.
 */
export const updateDatabaseBlock: BlockDefinition<z.infer<typeof configuration>> = {
  name: 'update-database',
  description: 'Applies an update modifier to a document (the triggering one by default) as the action owner, with baseRevision.',
  sockets: [
    { name: 'documentId', type: 'string', direction: 'IN', description: 'Target document id; overrides the configured one' },
    { name: 'modifier', type: 'object', direction: 'IN', description: 'Update modifier; overrides the configured one' },
    { name: 'data', type: 'object', direction: 'IN', description: 'Values for {{inputs.data...}} placeholders in the modifier; connecting it also gates the block' },
    { name: 'document', type: 'object', direction: 'OUT', description: 'The document after the update' },
    { name: 'revision', type: 'number', direction: 'OUT' },
  ],
  configuration,
  requiredInputs: ['modifier'],
  async run(config, context) {
    const merged = settings(config, context.inputs);
    const { event, services } = context;
    const typeId = config.typeId ?? event.typeId;
    const documentId = String(merged.documentId ?? event.entityId);
    const target = { typeId, documentId };
    const collection = documentsCollection(context.projectId, typeId);
    const baseRevision = config.baseRevision ?? (await defaultBaseRevision(context, typeId, collection, documentId));
    // Filled before the chain's budget is taken from: a modifier too large to fill attempts no write.
    const modifier = renderStrings(merged.modifier, { triggerName: context.triggerName, data: eventData(context), inputs: context.inputs }, new TemplateBudget());
    const budget = services.chainBudget;
    if (!(await budget.take(context.chain))) {
      throw new BlockError(
        runErrorCodes.chainLimit,
        `${typeId}/${documentId}: Not written: the actions this chain of writes triggered have attempted ${budget.limit} writes (limit ACTIONS_MAX_CHAIN_WRITES); actions probably trigger each other`,
        [target],
      );
    }
    try {
      // The write carries its depth and chain to its own event (the loop guard, docs/actions.md):
      // nothing kept beside it that a concurrent run's write or failure could overwrite or remove.
      const updated = await updateDocumentAs(services.data, {
        projectId: context.projectId,
        typeId,
        id: documentId,
        modifier,
        baseRevision,
        userId: context.ownerId,
        traceContext: context.traceContext,
        actionCause: { actionDepth: context.depth + 1, actionChain: context.chain },
      });
      context.revisions.set(`${collection}/${documentId}`, updated.revision);
      return { outputs: { document: publicView(updated), revision: updated.revision }, summary: { typeId, documentId, revision: updated.revision }, documents: [target] };
    } catch (error) {
      if (error instanceof AppError && error.code === NOT_FOUND) throw documentNotFound(typeId, documentId);
      if (error instanceof AppError) throw new BlockError(error.code, `${typeId}/${documentId}: ${error.message}`, [target]);
      throw error;
    }
  },
};

const NOT_FOUND = 'DATA_ENTITY_NOT_FOUND';

/**
 * One answer for a document that does not exist, is deleted, or that the owner may not read (the
 * data service's own rule for reads): a run must not tell whether an unreadable document exists.
 */
function documentNotFound(typeId: string, documentId: string): BlockError {
  return new BlockError(NOT_FOUND, `${typeId}/${documentId}: Entity not found`, [{ typeId, documentId }]);
}

async function defaultBaseRevision(context: BlockRunContext, typeId: string, collection: string, documentId: string): Promise<number> {
  const written = context.revisions.get(`${collection}/${documentId}`);
  if (written !== undefined) return written;
  if (collection === context.event.collection && documentId === context.event.entityId) return context.event.revision;
  const current = await context.services.data.store.collection(collection).findById(documentId, { projection: { revision: 1 } });
  if (!current) throw documentNotFound(typeId, documentId);
  return current.revision as number;
}

/** Fills placeholders in the string values of a modifier (never in its keys: paths stay as written), all from one budget. */
function renderStrings(value: unknown, context: unknown, budget: OutputBudget): unknown {
  if (typeof value === 'string') return renderTemplate(value, context, budget);
  if (Array.isArray(value)) return value.map((item) => renderStrings(item, context, budget));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, renderStrings(inner, context, budget)]));
  return value;
}

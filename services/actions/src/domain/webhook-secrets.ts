import type { ActionBlock } from './action-schema';
import type { GraphProblem } from './graph';

/** What callers who may not see block secrets read in their place (and may send back unchanged). */
export const REDACTED_SECRET = '[redacted]';

/** Block configuration fields that hold signing keys. */
const SECRET_FIELDS: readonly string[] = ['secret'];

/** The blocks with every secret replaced by the placeholder. */
export function redactSecrets(blocks: readonly ActionBlock[]): ActionBlock[] {
  return blocks.map((block) => {
    const configuration = block.configuration;
    if (!configuration || !SECRET_FIELDS.some((field) => field in configuration)) return block;
    return { ...block, configuration: Object.fromEntries(Object.entries(configuration).map(([key, value]) => [key, SECRET_FIELDS.includes(key) ? REDACTED_SECRET : value])) };
  });
}

/**
 * A PUT may send back the placeholder it read: the stored secret of the block with the same id is
 * kept, as long as the block still calls the same URL. Keeping a secret for another URL would let
 * someone who may not read it collect signatures the real receiver accepts, so that is a problem
 * (send the key itself), as is a placeholder for a block that had no secret.
 */
export function restoreRedactedSecrets(blocks: readonly ActionBlock[], stored: readonly ActionBlock[]): { blocks: ActionBlock[]; problems: GraphProblem[] } {
  const problems: GraphProblem[] = [];
  const storedById = new Map(stored.map((block) => [block.id, block]));
  const restored = blocks.map((block, index) => {
    const configuration = block.configuration;
    if (!configuration) return block;
    const before = storedById.get(block.id)?.configuration;
    const kept = { ...configuration };
    for (const field of SECRET_FIELDS) {
      if (configuration[field] !== REDACTED_SECRET) continue;
      if (before?.[field] === undefined || before.url !== configuration.url) {
        problems.push({
          code: 'ACTIONS_INVALID_CONFIGURATION',
          field: `blocks.${index}.configuration.${field}`,
          message: `"${REDACTED_SECRET}" keeps the stored ${field} only for the same block calling the same url; send the ${field} itself`,
        });
        continue;
      }
      kept[field] = before[field];
    }
    return { ...block, configuration: kept };
  });
  return { blocks: restored, problems };
}

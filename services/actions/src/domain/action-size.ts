import type { ActionBody } from './action-schema';
import type { GraphProblem } from './graph';

/**
 * The most an action may weigh, as UTF-8 bytes of its JSON. The executor keeps matching actions
 * parsed (ActionRepository), and parsed JSON can take 15 times its size in memory (many small
 * nested arrays in a conditional-logic `value`): actions of the 1 MiB a body may be held 15 MB
 * each. 256 KiB is several times the largest real actions (a 50,000-character mail text in any
 * script fits).
 */
export const MAX_ACTION_BYTES = 256 * 1024;

/** ACTIONS_TOO_LARGE for an action past MAX_ACTION_BYTES, naming its largest block (what to make smaller, usually). */
export function actionSizeProblems(body: ActionBody): GraphProblem[] {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes <= MAX_ACTION_BYTES) return [];
  const message = `the action is ${bytes} bytes of JSON; an action may be at most ${MAX_ACTION_BYTES}`;
  const blockSizes = (body.blocks ?? []).map((block) => Buffer.byteLength(JSON.stringify(block)));
  if (blockSizes.length === 0) return [{ code: 'ACTIONS_TOO_LARGE', field: 'body', message }];
  const largest = blockSizes.indexOf(Math.max(...blockSizes));
  return [{ code: 'ACTIONS_TOO_LARGE', field: `blocks.${largest}`, message: `${message} (this block is ${blockSizes[largest]})` }];
}

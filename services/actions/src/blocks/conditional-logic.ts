import { conditionSchema, evaluateCondition } from '../domain/condition';
import { eventData, type BlockDefinition } from './block';

/**
 * Tests a condition on its input (the trigger payload `{ triggerName, data }` when nothing is
 * connected) and passes the input on through `true` or `false`; blocks fed only by the branch not
 * taken are skipped.
 */
export const conditionalLogicBlock: BlockDefinition<ReturnType<typeof conditionSchema.parse>> = {
  name: 'conditional-logic',
  description: 'Routes its input to the true or the false output depending on a condition (path, operator, value).',
  sockets: [
    { name: 'input', type: 'object', direction: 'IN', description: 'The value tested; the trigger payload when unconnected' },
    { name: 'true', type: 'object', direction: 'OUT' },
    { name: 'false', type: 'object', direction: 'OUT' },
  ],
  configuration: conditionSchema,
  requiredInputs: [],
  async run(condition, context) {
    const subject = context.inputs.input !== undefined ? context.inputs.input : { triggerName: context.triggerName, data: eventData(context) };
    const result = evaluateCondition(condition, subject);
    return { outputs: { [String(result)]: subject }, summary: { result } };
  },
};

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import type { ActionGraph, BlockDefinition } from './graph-model';
import { placeProblems, problemsOf } from './graph-problems';

const definitions = new Map<string, BlockDefinition>([
  ['send-mail', { name: 'send-mail', description: '', requiredInputs: ['to'], configurationSchema: {}, sockets: [{ name: 'to', type: 'string', direction: 'IN' }, { name: 'sent', type: 'boolean', direction: 'OUT' }] }],
  ['call-webhook', { name: 'call-webhook', description: '', requiredInputs: [], configurationSchema: {}, sockets: [{ name: 'body', type: 'object', direction: 'IN' }, { name: 'status', type: 'number', direction: 'OUT' }] }],
]);

const graph: ActionGraph = {
  triggers: [{ id: 't1', triggerName: 'documentCreated' }],
  blocks: [
    { id: 'notify', blockName: 'call-webhook', configuration: { url: 'http://10.0.0.1/' } },
    { id: 'mail', blockName: 'send-mail' },
  ],
  connections: [{ sourceBlockId: 'notify', sourceSocketName: 'status', targetBlockId: 'mail', targetSocketName: 'to' }],
};

describe('a refused save, placed on the graph', () => {
  it('reads the actions service problems and the request validator issues', () => {
    const graphError = new ApiError(400, 'ACTIONS_CYCLE', 'Invalid connections: a cycle', { problems: [{ code: 'ACTIONS_CYCLE', field: 'connections', message: 'a cycle' }] });
    expect(problemsOf(graphError)).toEqual([{ field: 'connections', message: 'a cycle' }]);
    const shapeError = new ApiError(400, 'VALIDATION_FAILED', 'Invalid body.title: title is required', { issues: [{ field: 'body.title', message: 'title is required' }] });
    expect(problemsOf(shapeError)).toEqual([{ field: 'title', message: 'title is required' }]);
    expect(problemsOf(new ApiError(403, 'ACTIONS_FORBIDDEN', 'You may not update this action', undefined))).toEqual([{ field: '', message: 'You may not update this action' }]);
  });

  it('puts each problem on the block, socket, connection, trigger or field it names, the rest on the form', () => {
    const placed = placeProblems(
      [
        { field: 'blocks.0.configuration.url', message: 'private address' },
        { field: 'blocks.1.configuration.to', message: 'needs "to"' },
        { field: 'connections.0', message: 'notify.status (number) cannot feed mail.to (string)' },
        { field: 'triggers.0.triggerName', message: 'unknown trigger' },
        { field: 'title', message: 'title is required' },
        { field: 'connections', message: 'a cycle' },
      ],
      graph,
      definitions,
    );
    expect(placed.blocks).toEqual({ notify: ['private address'], mail: ['needs "to"'] });
    expect(placed.fields).toEqual({ 'notify.url': 'private address', 'mail.to': 'needs "to"', title: 'title is required' });
    expect(placed.sockets).toEqual({ 'mail.to': ['needs "to"', 'notify.status (number) cannot feed mail.to (string)'] });
    expect(placed.connections).toEqual({ 'notify.status->mail.to': ['notify.status (number) cannot feed mail.to (string)'] });
    expect(placed.triggers).toEqual({ t1: ['unknown trigger'] });
    expect(placed.form).toEqual(['a cycle']);
  });
});

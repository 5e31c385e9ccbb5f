import { describe, expect, it } from 'vitest';
import { blockColumns, connectionRefusal, freeBlockId, withoutBlock, type ActionGraph, type BlockDefinition } from './graph-model';

const definition = (name: string, sockets: BlockDefinition['sockets']): BlockDefinition => ({ name, description: '', sockets, requiredInputs: [], configurationSchema: {} });

// The registry's sockets as GET /api/actions/blocks answers them (services/actions/src/blocks).
const definitions = new Map(
  [
    definition('conditional-logic', [
      { name: 'input', type: 'object', direction: 'IN' },
      { name: 'true', type: 'object', direction: 'OUT' },
      { name: 'false', type: 'object', direction: 'OUT' },
    ]),
    definition('call-webhook', [
      { name: 'body', type: 'object', direction: 'IN' },
      { name: 'status', type: 'number', direction: 'OUT' },
      { name: 'response', type: 'object', direction: 'OUT' },
    ]),
    definition('update-database', [
      { name: 'documentId', type: 'string', direction: 'IN' },
      { name: 'modifier', type: 'object', direction: 'IN' },
      { name: 'document', type: 'object', direction: 'OUT' },
      { name: 'revision', type: 'number', direction: 'OUT' },
    ]),
  ].map((block) => [block.name, block]),
);

const graph: ActionGraph = {
  triggers: [{ id: 't1', triggerName: 'documentCreated' }],
  blocks: [
    { id: 'check', blockName: 'conditional-logic' },
    { id: 'notify', blockName: 'call-webhook' },
    { id: 'stamp', blockName: 'update-database' },
  ],
  connections: [{ sourceBlockId: 'check', sourceSocketName: 'true', targetBlockId: 'notify', targetSocketName: 'body' }],
};

describe('drawing a connection', () => {
  it('takes an output into an input of a compatible type', () => {
    expect(connectionRefusal(graph, definitions, { blockId: 'notify', socketName: 'response' }, { blockId: 'stamp', socketName: 'modifier' })).toBeUndefined();
  });

  it('refuses incompatible socket types in the words the server uses', () => {
    expect(connectionRefusal(graph, definitions, { blockId: 'notify', socketName: 'status' }, { blockId: 'stamp', socketName: 'documentId' })).toBe('notify.status (number) cannot feed stamp.documentId (string)');
  });

  it('refuses a second connection into one input, a start at an input, an end at an output, and a cycle', () => {
    expect(connectionRefusal(graph, definitions, { blockId: 'check', socketName: 'false' }, { blockId: 'notify', socketName: 'body' })).toBe('input "body" of block "notify" already has a connection');
    expect(connectionRefusal(graph, definitions, { blockId: 'notify', socketName: 'body' }, { blockId: 'stamp', socketName: 'modifier' })).toMatch(/is an input; a connection starts at an output/);
    expect(connectionRefusal(graph, definitions, { blockId: 'check', socketName: 'true' }, { blockId: 'notify', socketName: 'status' })).toMatch(/is an output; a connection ends at an input/);
    expect(connectionRefusal(graph, definitions, { blockId: 'notify', socketName: 'response' }, { blockId: 'check', socketName: 'input' })).toBe('the connection would form a cycle through block "notify"');
    expect(connectionRefusal(graph, definitions, { blockId: 'check', socketName: 'true' }, { blockId: 'check', socketName: 'input' })).toMatch(/cycle/);
  });
});

describe('the graph layout and edits', () => {
  it('puts each block one column right of the blocks feeding it', () => {
    expect(blockColumns(graph)).toEqual([['check', 'stamp'], ['notify']]);
    const chain = { ...graph, connections: [...graph.connections, { sourceBlockId: 'notify', sourceSocketName: 'response', targetBlockId: 'stamp', targetSocketName: 'modifier' }] };
    expect(blockColumns(chain)).toEqual([['check'], ['notify'], ['stamp']]);
  });

  it('names new blocks after their kind without reusing an id, and removes a block with its connections', () => {
    expect(freeBlockId({ ...graph, blocks: [...graph.blocks, { id: 'call-webhook-1', blockName: 'call-webhook' }] }, 'call-webhook')).toBe('call-webhook-2');
    expect(withoutBlock(graph, 'notify')).toEqual({ ...graph, blocks: [graph.blocks[0], graph.blocks[2]], connections: [] });
  });
});

import { describe, expect, it } from 'vitest';
import { blockRegistry } from '../blocks/registry';
import type { ActionBlock, ActionConnection } from './action-schema';
import { findCycle, topologicalOrder, validateGraph, type ActionGraph } from './graph';

const mail = (id: string, configuration: Record<string, unknown> = { to: 'a@example.org' }): ActionBlock => ({ id, blockName: 'send-mail', configuration });
const condition = (id: string): ActionBlock => ({ id, blockName: 'conditional-logic', configuration: { path: 'data.document.done', operator: 'truthy' } });
const update = (id: string): ActionBlock => ({ id, blockName: 'update-database', configuration: { modifier: { $set: { seen: true } } } });
const link = (source: string, sourceSocket: string, target: string, targetSocket: string): ActionConnection => ({ sourceBlockId: source, sourceSocketName: sourceSocket, targetBlockId: target, targetSocketName: targetSocket });

function problems(graph: Partial<ActionGraph>) {
  return validateGraph({ triggers: [], blocks: [], connections: [], ...graph }, blockRegistry);
}

describe('validateGraph', () => {
  it('accepts a valid graph', () => {
    expect(problems({ blocks: [condition('c'), update('u'), mail('m')], connections: [link('c', 'true', 'u', 'modifier'), link('u', 'document', 'm', 'data')] })).toEqual([]);
  });

  it.each([
    ['a duplicate block id', { blocks: [mail('a'), mail('a')] }, 'ACTIONS_DUPLICATE_ID', 'blocks.1.id', 'blocks id "a" is used twice'],
    [
      'a duplicate trigger id',
      { triggers: [{ id: 't', triggerName: 'documentCreated' as const }, { id: 't', triggerName: 'documentUpdated' as const }] },
      'ACTIONS_DUPLICATE_ID',
      'triggers.1.id',
      'triggers id "t" is used twice',
    ],
    ['an unregistered block', { blocks: [{ id: 'x', blockName: 'launch-rocket' }] }, 'ACTIONS_UNKNOWN_BLOCK', 'blocks.0.blockName', '"launch-rocket" is not a registered block'],
    ['a bad configuration value', { blocks: [{ id: 'w', blockName: 'call-webhook', configuration: { url: 'ftp://x.example' } }] }, 'ACTIONS_INVALID_CONFIGURATION', 'blocks.0.configuration.url', 'http or https'],
    ['an unknown configuration key', { blocks: [mail('m', { to: 'a@example.org', cc: 'b@example.org' })] }, 'ACTIONS_INVALID_CONFIGURATION', 'blocks.0.configuration', 'cc'],
    ['a required input neither configured nor connected', { blocks: [mail('m', {})] }, 'ACTIONS_MISSING_INPUT', 'blocks.0.configuration.to', 'needs "to"'],
    ['a connection from an unknown block', { blocks: [mail('m')], connections: [link('ghost', 'sent', 'm', 'data')] }, 'ACTIONS_INVALID_CONNECTION', 'connections.0.source', 'no block has the id "ghost"'],
    ['a socket the block does not have', { blocks: [update('u'), mail('m')], connections: [link('u', 'nothing', 'm', 'data')] }, 'ACTIONS_INVALID_CONNECTION', 'connections.0.source', 'has no socket "nothing"'],
    ['a connection starting at an input', { blocks: [mail('a'), mail('b')], connections: [link('a', 'to', 'b', 'to')] }, 'ACTIONS_INVALID_CONNECTION', 'connections.0.sourceSocketName', 'is an input'],
    ['a connection ending at an output', { blocks: [mail('a'), mail('b')], connections: [link('a', 'sent', 'b', 'sent')] }, 'ACTIONS_INVALID_CONNECTION', 'connections.0.targetSocketName', 'is an output'],
    ['incompatible socket types', { blocks: [update('u'), mail('m')], connections: [link('u', 'revision', 'm', 'to')] }, 'ACTIONS_INCOMPATIBLE_SOCKETS', 'connections.0', 'u.revision (number) cannot feed m.to (string)'],
    [
      'two connections into one input',
      { blocks: [update('u1'), update('u2'), mail('m')], connections: [link('u1', 'document', 'm', 'data'), link('u2', 'document', 'm', 'data')] },
      'ACTIONS_INVALID_CONNECTION',
      'connections.1',
      'already has a connection',
    ],
  ])('refuses %s', (_name, graph, code, field, message) => {
    const [first] = problems(graph);
    expect(first).toMatchObject({ code, field });
    expect(first?.message).toContain(message);
  });

  it('accepts any type into an object input', () => {
    expect(problems({ blocks: [update('u'), mail('m')], connections: [link('u', 'revision', 'm', 'data')] })).toEqual([]);
  });

  it('refuses a cycle, naming a block on it', () => {
    const found = problems({
      blocks: [update('a'), update('b'), update('c'), mail('d')],
      connections: [link('a', 'document', 'b', 'modifier'), link('b', 'document', 'c', 'modifier'), link('c', 'document', 'b', 'documentId'), link('c', 'document', 'd', 'data')],
    });
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ code: 'ACTIONS_INCOMPATIBLE_SOCKETS' });
    expect(found[1]).toMatchObject({ code: 'ACTIONS_CYCLE', field: 'connections', message: 'the connections form a cycle through block "b" (b → c → b)' });
  });
});

describe('findCycle', () => {
  it('finds a self-loop and answers null for a DAG', () => {
    expect(findCycle(['a'], [link('a', 'x', 'a', 'y')])).toEqual(['a', 'a']);
    expect(findCycle(['a', 'b', 'c'], [link('a', 'x', 'b', 'y'), link('a', 'x', 'c', 'y'), link('b', 'x', 'c', 'z')])).toBeNull();
  });
});

describe('topologicalOrder', () => {
  it('puts every block after the blocks that feed it, otherwise keeping the listed order', () => {
    expect(topologicalOrder(['mail', 'update', 'check'], [link('check', 'true', 'update', 'modifier'), link('update', 'document', 'mail', 'data')])).toEqual(['check', 'update', 'mail']);
    expect(topologicalOrder(['b', 'a', 'c'], [])).toEqual(['b', 'a', 'c']);
    expect(topologicalOrder(['a', 'b', 'c', 'd'], [link('a', 'x', 'd', 'y'), link('c', 'x', 'b', 'y')])).toEqual(['a', 'c', 'b', 'd']);
  });
});

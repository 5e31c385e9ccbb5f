import type { z } from 'zod';
import type { ActionsErrorCode } from '../errors';
import type { ActionBlock, ActionConnection, ActionTrigger } from './action-schema';
import { socketsCompatible, type ActionSocket } from './sockets';

/** What graph validation needs to know about a registered block. */
export interface BlockShape {
  sockets: ActionSocket[];
  configuration: z.ZodType;
  requiredInputs: string[];
}

export interface GraphProblem {
  code: ActionsErrorCode;
  /** Where in the body, dotted like the request validator's fields (`blocks.1.blockName`). */
  field: string;
  message: string;
}

export interface ActionGraph {
  triggers: ActionTrigger[];
  blocks: ActionBlock[];
  connections: ActionConnection[];
}

/**
 * Checks an action as a graph: unique ids, registered blocks with valid configurations, every
 * connection from an existing OUT socket to an existing IN socket of a compatible type, at most
 * one connection into each input, required inputs present, and no cycle. Answers every problem
 * found, in body order, the cycle last.
 */
export function validateGraph(graph: ActionGraph, registry: ReadonlyMap<string, BlockShape>): GraphProblem[] {
  const problems: GraphProblem[] = [];
  duplicates(graph.triggers, 'triggers', problems);
  duplicates(graph.blocks, 'blocks', problems);

  const blocks = new Map(graph.blocks.map((block) => [block.id, block]));
  graph.blocks.forEach((block, index) => {
    const shape = registry.get(block.blockName);
    if (!shape) {
      problems.push({ code: 'ACTIONS_UNKNOWN_BLOCK', field: `blocks.${index}.blockName`, message: `"${block.blockName}" is not a registered block; registered: ${[...registry.keys()].join(', ')}` });
      return;
    }
    const parsed = shape.configuration.safeParse(block.configuration ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = [`blocks.${index}.configuration`, ...issue.path.map(String)].join('.');
        problems.push({ code: 'ACTIONS_INVALID_CONFIGURATION', field, message: `${block.blockName} block "${block.id}": ${issue.message}` });
      }
    }
  });

  const fed = new Set<string>();
  graph.connections.forEach((connection, index) => {
    const field = `connections.${index}`;
    const source = socketOf(blocks, registry, connection.sourceBlockId, connection.sourceSocketName);
    const target = socketOf(blocks, registry, connection.targetBlockId, connection.targetSocketName);
    if (typeof source === 'string') return void problems.push({ code: 'ACTIONS_INVALID_CONNECTION', field: `${field}.source`, message: source });
    if (typeof target === 'string') return void problems.push({ code: 'ACTIONS_INVALID_CONNECTION', field: `${field}.target`, message: target });
    if (source && source.direction !== 'OUT') {
      return void problems.push({ code: 'ACTIONS_INVALID_CONNECTION', field: `${field}.sourceSocketName`, message: `socket "${source.name}" of block "${connection.sourceBlockId}" is an input; a connection starts at an output` });
    }
    if (target && target.direction !== 'IN') {
      return void problems.push({ code: 'ACTIONS_INVALID_CONNECTION', field: `${field}.targetSocketName`, message: `socket "${target.name}" of block "${connection.targetBlockId}" is an output; a connection ends at an input` });
    }
    if (source && target && !socketsCompatible(source.type, target.type)) {
      problems.push({
        code: 'ACTIONS_INCOMPATIBLE_SOCKETS',
        field,
        message: `${connection.sourceBlockId}.${source.name} (${source.type}) cannot feed ${connection.targetBlockId}.${target.name} (${target.type})`,
      });
    }
    const input = `${connection.targetBlockId}\u0000${connection.targetSocketName}`;
    if (fed.has(input)) {
      problems.push({ code: 'ACTIONS_INVALID_CONNECTION', field, message: `input "${connection.targetSocketName}" of block "${connection.targetBlockId}" already has a connection` });
    }
    fed.add(input);
  });

  graph.blocks.forEach((block, index) => {
    const shape = registry.get(block.blockName);
    for (const input of shape?.requiredInputs ?? []) {
      if (block.configuration?.[input] === undefined && !fed.has(`${block.id}\u0000${input}`)) {
        problems.push({ code: 'ACTIONS_MISSING_INPUT', field: `blocks.${index}.configuration.${input}`, message: `${block.blockName} block "${block.id}" needs "${input}" in its configuration or a connection into its "${input}" socket` });
      }
    }
  });

  const cycle = findCycle(graph.blocks.map((block) => block.id), graph.connections);
  if (cycle) {
    problems.push({ code: 'ACTIONS_CYCLE', field: 'connections', message: `the connections form a cycle through block "${cycle[0]}" (${cycle.join(' → ')})` });
  }
  return problems;
}

function duplicates(items: Array<{ id: string }>, list: string, problems: GraphProblem[]): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) problems.push({ code: 'ACTIONS_DUPLICATE_ID', field: `${list}.${index}.id`, message: `${list} id "${item.id}" is used twice` });
    seen.add(item.id);
  });
}

/** The socket, undefined when its block is unregistered (reported already), or why it does not exist. */
function socketOf(blocks: Map<string, ActionBlock>, registry: ReadonlyMap<string, BlockShape>, blockId: string, socketName: string): ActionSocket | string | undefined {
  const block = blocks.get(blockId);
  if (!block) return `no block has the id "${blockId}"`;
  const shape = registry.get(block.blockName);
  if (!shape) return undefined;
  return shape.sockets.find((socket) => socket.name === socketName) ?? `block "${blockId}" (${block.blockName}) has no socket "${socketName}"; it has ${shape.sockets.map((s) => s.name).join(', ')}`;
}

/** Successor lists of the graph, each in connection order, ignoring connections to unknown blocks. */
function successors(blockIds: string[], connections: ActionConnection[]): Map<string, string[]> {
  const next = new Map(blockIds.map((id) => [id, [] as string[]]));
  for (const { sourceBlockId, targetBlockId } of connections) {
    if (next.has(targetBlockId)) next.get(sourceBlockId)?.push(targetBlockId);
  }
  return next;
}

/** A cycle as the path of block ids that closes it (first id repeated at the end), or null. */
export function findCycle(blockIds: string[], connections: ActionConnection[]): string[] | null {
  const next = successors(blockIds, connections);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    state.set(id, 'open');
    path.push(id);
    for (const target of next.get(id) ?? []) {
      if (state.get(target) === 'open') return [...path.slice(path.indexOf(target)), target];
      if (!state.has(target)) {
        const found = visit(target);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const id of blockIds) {
    if (state.has(id)) continue;
    const found = visit(id);
    if (found) return found;
  }
  return null;
}

/**
 * Blocks in an order where every block comes after all blocks that feed it (Kahn's algorithm);
 * among blocks that are ready at the same time, the one listed first in the action goes first.
 * Expects an acyclic graph (validated on save).
 */
export function topologicalOrder(blockIds: string[], connections: ActionConnection[]): string[] {
  const next = successors(blockIds, connections);
  const incoming = new Map(blockIds.map((id) => [id, 0]));
  for (const targets of next.values()) for (const target of targets) incoming.set(target, (incoming.get(target) ?? 0) + 1);
  const position = new Map(blockIds.map((id, index) => [id, index]));
  const ready = blockIds.filter((id) => incoming.get(id) === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => (position.get(a) as number) - (position.get(b) as number));
    const id = ready.shift() as string;
    order.push(id);
    for (const target of next.get(id) ?? []) {
      const remaining = (incoming.get(target) as number) - 1;
      incoming.set(target, remaining);
      if (remaining === 0) ready.push(target);
    }
  }
  return order;
}

import { socketsCompatible } from './socket-compatibility';

/** A socket of a registered block, as GET /api/actions/blocks describes it. */
export interface SocketShape {
  name: string;
  type: string;
  direction: 'IN' | 'OUT';
  description?: string | undefined;
}

/** A registered block: its sockets, the settings it needs, and its configuration's JSON Schema. */
export interface BlockDefinition {
  name: string;
  description: string;
  sockets: SocketShape[];
  requiredInputs: string[];
  configurationSchema: Record<string, unknown>;
}

export interface DraftTrigger {
  id: string;
  triggerName: 'documentCreated' | 'documentUpdated' | 'documentDeleted';
  configuration?: { typeId?: string | undefined } | undefined;
}

export interface DraftBlock {
  id: string;
  blockName: string;
  configuration?: Record<string, unknown> | undefined;
}

export interface DraftConnection {
  sourceBlockId: string;
  sourceSocketName: string;
  targetBlockId: string;
  targetSocketName: string;
}

/** The parts of an action the editor draws and changes. */
export interface ActionGraph {
  triggers: DraftTrigger[];
  blocks: DraftBlock[];
  connections: DraftConnection[];
}

/** One end of a connection: a block's socket. */
export interface SocketRef {
  blockId: string;
  socketName: string;
}

export const triggerNames = ['documentCreated', 'documentUpdated', 'documentDeleted'] as const;

export function socketOf(graph: ActionGraph, definitions: ReadonlyMap<string, BlockDefinition>, ref: SocketRef): SocketShape | undefined {
  const block = graph.blocks.find((candidate) => candidate.id === ref.blockId);
  return block && definitions.get(block.blockName)?.sockets.find((socket) => socket.name === ref.socketName);
}

/** Whether `to` can be reached from `from` along the connections (a new edge to → from would close a cycle). */
function reaches(connections: DraftConnection[], from: string, to: string): boolean {
  const seen = new Set<string>();
  const pending = [from];
  while (pending.length > 0) {
    const id = pending.pop() as string;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const connection of connections) if (connection.sourceBlockId === id) pending.push(connection.targetBlockId);
  }
  return false;
}

/**
 * Why the connection from `source` to `target` may not be drawn, or undefined when it may: the
 * server's rules (services/actions/src/domain/graph.ts) in the words it uses, checked while
 * drawing so the editor never holds a connection that saving would refuse.
 */
export function connectionRefusal(graph: ActionGraph, definitions: ReadonlyMap<string, BlockDefinition>, source: SocketRef, target: SocketRef): string | undefined {
  const from = socketOf(graph, definitions, source);
  const to = socketOf(graph, definitions, target);
  if (!from || !to) return 'both ends must be sockets of blocks in this action';
  if (from.direction !== 'OUT') return `socket "${from.name}" of block "${source.blockId}" is an input; a connection starts at an output`;
  if (to.direction !== 'IN') return `socket "${to.name}" of block "${target.blockId}" is an output; a connection ends at an input`;
  if (!socketsCompatible(from.type, to.type)) return `${source.blockId}.${from.name} (${from.type}) cannot feed ${target.blockId}.${to.name} (${to.type})`;
  if (graph.connections.some((connection) => connection.targetBlockId === target.blockId && connection.targetSocketName === target.socketName)) {
    return `input "${to.name}" of block "${target.blockId}" already has a connection`;
  }
  if (source.blockId === target.blockId || reaches(graph.connections, target.blockId, source.blockId)) {
    return `the connection would form a cycle through block "${source.blockId}"`;
  }
  return undefined;
}

/**
 * Blocks in columns for drawing: a block sits one column right of the rightmost block feeding it
 * (the longest path from a block nothing feeds), so every connection runs left to right. Within a
 * column, blocks keep the action's order.
 */
export function blockColumns(graph: ActionGraph): string[][] {
  const column = new Map<string, number>();
  const depth = (id: string, visiting: Set<string>): number => {
    const known = column.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const feeders = graph.connections.filter((connection) => connection.targetBlockId === id && graph.blocks.some((block) => block.id === connection.sourceBlockId));
    const value = feeders.reduce((deepest, connection) => Math.max(deepest, depth(connection.sourceBlockId, visiting) + 1), 0);
    visiting.delete(id);
    column.set(id, value);
    return value;
  };
  const columns: string[][] = [];
  for (const block of graph.blocks) (columns[depth(block.id, new Set())] ??= []).push(block.id);
  return Array.from(columns, (ids) => ids ?? []);
}

/** A block id not used yet, from the block's name: `call-webhook-1`, `call-webhook-2`, ... */
export function freeBlockId(graph: ActionGraph, blockName: string): string {
  const used = new Set(graph.blocks.map((block) => block.id));
  let count = 1;
  while (used.has(`${blockName}-${count}`)) count += 1;
  return `${blockName}-${count}`;
}

/** The graph without a block and the connections to and from it. */
export function withoutBlock(graph: ActionGraph, blockId: string): ActionGraph {
  return {
    ...graph,
    blocks: graph.blocks.filter((block) => block.id !== blockId),
    connections: graph.connections.filter((connection) => connection.sourceBlockId !== blockId && connection.targetBlockId !== blockId),
  };
}

import { ApiError } from '../../api/client';
import type { ActionGraph, BlockDefinition, DraftConnection } from './graph-model';

/** One validation problem of a 400: the field it names (`blocks.1.configuration.url`) and its message. */
export interface Problem {
  field: string;
  message: string;
}

/** Where each problem of a refused save is shown: on a block, a socket, a trigger, a connection, a form field, or the form. */
export interface PlacedProblems {
  blocks: Record<string, string[]>;
  /** By `<blockId>.<socketName>`. */
  sockets: Record<string, string[]>;
  triggers: Record<string, string[]>;
  /** By connectionKey(connection). */
  connections: Record<string, string[]>;
  /** Configuration fields by `<blockId>.<key>`, and `title` / `description`. */
  fields: Record<string, string>;
  form: string[];
}

export const noProblems: PlacedProblems = { blocks: {}, sockets: {}, triggers: {}, connections: {}, fields: {}, form: [] };

/**
 * The problems of a 400: the actions service lists graph problems in `details.problems`, the
 * request validator its issues in `details.issues` (fields prefixed `body.`); anything else is
 * the error's message alone.
 */
export function problemsOf(error: ApiError): Problem[] {
  const listed = error.details?.problems ?? error.details?.issues;
  const problems = Array.isArray(listed)
    ? listed.flatMap((item: unknown) => {
        const { field, message } = (item ?? {}) as { field?: unknown; message?: unknown };
        return typeof field === 'string' && typeof message === 'string' ? [{ field: field.replace(/^body\./, ''), message }] : [];
      })
    : [];
  return problems.length > 0 ? problems : [{ field: '', message: error.message }];
}

/** Names a connection by its ends, so its problems stay with it while others are added or removed. */
export const connectionKey = (connection: DraftConnection) => `${connection.sourceBlockId}.${connection.sourceSocketName}->${connection.targetBlockId}.${connection.targetSocketName}`;

const push = (record: Record<string, string[]>, key: string, message: string) => {
  (record[key] ??= []).push(message);
};

/**
 * Places each problem on what it names in the graph that was saved: `blocks.<i>...` on that block
 * (and on its socket when the configuration key is also an input, since an input and the setting
 * of the same name are one), `connections.<i>...` on that connection and the input it feeds,
 * `triggers.<i>...` on that trigger, `title`/`description` beside their field, the rest on the form.
 */
export function placeProblems(problems: Problem[], graph: ActionGraph, definitions: ReadonlyMap<string, BlockDefinition>): PlacedProblems {
  const placed: PlacedProblems = { blocks: {}, sockets: {}, triggers: {}, connections: {}, fields: {}, form: [] };
  for (const { field, message } of problems) {
    const [list, index, part, key] = field.split('.');
    const position = Number(index);
    const block = list === 'blocks' ? graph.blocks[position] : undefined;
    const connection = list === 'connections' && index !== undefined ? graph.connections[position] : undefined;
    const trigger = list === 'triggers' ? graph.triggers[position] : undefined;
    if (block) {
      push(placed.blocks, block.id, message);
      if (part === 'configuration' && key) {
        placed.fields[`${block.id}.${key}`] ??= message;
        if (definitions.get(block.blockName)?.sockets.some((socket) => socket.direction === 'IN' && socket.name === key)) push(placed.sockets, `${block.id}.${key}`, message);
      }
    } else if (connection) {
      push(placed.connections, connectionKey(connection), message);
      push(placed.sockets, `${connection.targetBlockId}.${connection.targetSocketName}`, message);
    } else if (trigger) {
      push(placed.triggers, trigger.id, message);
    } else if (list === 'title' || list === 'description') {
      placed.fields[list] ??= message;
    } else {
      placed.form.push(message);
    }
  }
  return placed;
}

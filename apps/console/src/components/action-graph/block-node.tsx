import type { PointerEvent } from 'react';
import type { BlockDefinition, DraftBlock, SocketRef, SocketShape } from './graph-model';

/** What an input socket looks like while a connection is being drawn: takes it, or refuses it and why. */
export type InputState = { refusal?: string | undefined } | undefined;

export interface BlockNodeProps {
  block: DraftBlock;
  definition: BlockDefinition | undefined;
  selected: boolean;
  /** The output a connection is being drawn from, if any. */
  source: SocketRef | undefined;
  /** Per input socket name, while drawing. */
  inputStates: Record<string, InputState>;
  problems: string[];
  socketProblems: Record<string, string[]>;
  onSelect(): void;
  onOutput(socket: SocketShape): void;
  onOutputPointerDown(socket: SocketShape, event: PointerEvent<HTMLButtonElement>): void;
  onInput(socket: SocketShape): void;
  onInputHint(socket: SocketShape | undefined): void;
}

/**
 * One block of the graph: its id and kind, its input sockets on the left and outputs on the
 * right (buttons, so a keyboard can draw connections: an output, then an input), and the server's
 * problems with it.
 */
export function BlockNode(props: BlockNodeProps) {
  const { block, definition, selected, source, inputStates, problems, socketProblems } = props;
  const sockets = definition?.sockets ?? [];
  const inputs = sockets.filter((socket) => socket.direction === 'IN');
  const outputs = sockets.filter((socket) => socket.direction === 'OUT');
  const invalid = problems.length > 0 || Object.keys(socketProblems).length > 0;
  // A problem shown beside the socket it names is not repeated below the block.
  const onSockets = new Set(Object.values(socketProblems).flat());
  const blockProblems = problems.filter((message) => !onSockets.has(message));
  return (
    <section aria-label={`Block ${block.id}`} className={`graph-node${selected ? ' selected' : ''}${invalid ? ' invalid' : ''}`}>
      <span className="graph-anchor-in" data-anchor={`block:${block.id}`} />
      <button type="button" className="graph-node-title" aria-pressed={selected} aria-label={`Configure ${block.id}`} onClick={props.onSelect}>
        <strong>{block.id}</strong>
        <small>{block.blockName}</small>
      </button>
      <ul className="graph-sockets" aria-label={`Sockets of ${block.id}`}>
          {inputs.map((socket) => {
            const state = inputStates[socket.name];
            const messages = socketProblems[socket.name] ?? [];
            const mark = state === undefined ? '' : state.refusal ? ' refused' : ' accepts';
            return (
              <li key={`in:${socket.name}`} className={`graph-socket input${mark}${messages.length ? ' invalid' : ''}`}>
                <button
                  type="button"
                  data-anchor={`in:${block.id}.${socket.name}`}
                  data-input={`${block.id}\u0000${socket.name}`}
                  aria-label={`${block.id} input ${socket.name}`}
                  aria-description={state?.refusal}
                  title={state?.refusal ?? socket.description}
                  onClick={() => props.onInput(socket)}
                  onPointerEnter={() => props.onInputHint(socket)}
                  onPointerLeave={() => props.onInputHint(undefined)}
                  onFocus={() => props.onInputHint(socket)}
                  onBlur={() => props.onInputHint(undefined)}
                />
                <span>
                  {socket.name} <small>{socket.type}</small>
                </span>
                {messages.map((message) => (
                  <p key={message} className="graph-problem">
                    {message}
                  </p>
                ))}
              </li>
            );
          })}
          {outputs.map((socket) => {
            const drawing = source?.blockId === block.id && source.socketName === socket.name;
            return (
              <li key={`out:${socket.name}`} className="graph-socket output">
                <span>
                  {socket.name} <small>{socket.type}</small>
                </span>
                <button
                  type="button"
                  data-anchor={`out:${block.id}.${socket.name}`}
                  aria-label={`${block.id} output ${socket.name}`}
                  aria-pressed={drawing}
                  title={socket.description}
                  onClick={() => props.onOutput(socket)}
                  onPointerDown={(event) => props.onOutputPointerDown(socket, event)}
                />
              </li>
            );
          })}
      </ul>
      {blockProblems.length > 0 && (
        <ul className="graph-problems" aria-label={`Problems of ${block.id}`}>
          {blockProblems.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { BlockNode, type InputState } from './block-node';
import { blockColumns, connectionRefusal, type ActionGraph as Graph, type BlockDefinition, type DraftConnection, type SocketRef, type SocketShape } from './graph-model';
import { connectionKey, type PlacedProblems } from './graph-problems';
import { useAnchors, type Point } from './use-anchors';
import './action-graph.css';

export interface ActionGraphProps {
  graph: Graph;
  definitions: ReadonlyMap<string, BlockDefinition>;
  problems: PlacedProblems;
  selectedBlockId: string | undefined;
  onSelectBlock(blockId: string): void;
  onConnect(connection: DraftConnection): void;
  onRemoveTrigger(triggerId: string): void;
}

/** A connection drawn as a curve from an output (left) to an input (right). */
function curve(from: Point, to: Point): string {
  const bend = Math.max(40, Math.abs(to.x - from.x) / 2);
  return `M ${from.x} ${from.y} C ${from.x + bend} ${from.y}, ${to.x - bend} ${to.y}, ${to.x} ${to.y}`;
}

/** Which element under the pointer is an input socket, as `blockId\0socketName`. */
function inputAt(x: number, y: number): SocketRef | undefined {
  const marked = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-input]')?.dataset.input;
  if (!marked) return undefined;
  const [blockId, socketName] = marked.split('\u0000') as [string, string];
  return { blockId, socketName };
}

/**
 * The action as a graph: triggers on the left, then blocks in columns by how far down the flow
 * they are, connections drawn between their sockets. A connection is drawn by dragging from an
 * output to an input, or with clicks or the keyboard (an output, then an input; Escape cancels).
 * While one is being drawn every input shows whether it takes it; an input that does not says why
 * (the server's socket rules, graph-model.ts), and choosing it is refused with that reason.
 */
export function ActionGraph({ graph, definitions, problems, selectedBlockId, onSelectBlock, onConnect, onRemoveTrigger }: ActionGraphProps) {
  const canvas = useRef<HTMLDivElement>(null);
  const anchors = useAnchors(canvas);
  const [source, setSource] = useState<SocketRef>();
  const [pointer, setPointer] = useState<Point>();
  const [hint, setHint] = useState<string>();
  const [refusal, setRefusal] = useState<string>();

  const cancel = () => {
    setSource(undefined);
    setPointer(undefined);
    setHint(undefined);
  };

  useEffect(() => {
    if (!source) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && cancel();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [source]);

  /** Connects the drawn output to `target`, or refuses with the reason. */
  const finish = (target: SocketRef) => {
    if (!source) return;
    const reason = connectionRefusal(graph, definitions, source, target);
    if (reason) {
      setRefusal(`Refused: ${reason}`);
      return;
    }
    setRefusal(undefined);
    onConnect({ sourceBlockId: source.blockId, sourceSocketName: source.socketName, targetBlockId: target.blockId, targetSocketName: target.socketName });
    cancel();
  };

  const startAt = (blockId: string, socket: SocketShape) => {
    setRefusal(undefined);
    setSource({ blockId, socketName: socket.name });
  };

  // Dragging from an output: a line follows the pointer; releasing over an input connects to it.
  const drag = (blockId: string, socket: SocketShape, down: PointerEvent<HTMLButtonElement>) => {
    if (down.button !== 0 || !canvas.current) return;
    const area = canvas.current;
    const start = { x: down.clientX, y: down.clientY };
    let moved = false;
    const onMove = (event: globalThis.PointerEvent) => {
      if (!moved && Math.hypot(event.clientX - start.x, event.clientY - start.y) < 5) return;
      if (!moved) startAt(blockId, socket);
      moved = true;
      const origin = area.getBoundingClientRect();
      setPointer({ x: event.clientX - origin.left + area.scrollLeft, y: event.clientY - origin.top + area.scrollTop });
      const target = inputAt(event.clientX, event.clientY);
      setHint(target ? connectionRefusal(graph, definitions, { blockId, socketName: socket.name }, target) : undefined);
    };
    const onUp = (event: globalThis.PointerEvent) => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      if (!moved) return;
      setPointer(undefined);
      const target = inputAt(event.clientX, event.clientY);
      if (target) {
        const reason = connectionRefusal(graph, definitions, { blockId, socketName: socket.name }, target);
        if (reason) setRefusal(`Refused: ${reason}`);
        else onConnect({ sourceBlockId: blockId, sourceSocketName: socket.name, targetBlockId: target.blockId, targetSocketName: target.socketName });
      }
      cancel();
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };

  const inputStates = (blockId: string): Record<string, InputState> => {
    if (!source) return {};
    const block = graph.blocks.find((candidate) => candidate.id === blockId);
    const sockets = (block && definitions.get(block.blockName)?.sockets) ?? [];
    return Object.fromEntries(sockets.filter((socket) => socket.direction === 'IN').map((socket) => [socket.name, { refusal: connectionRefusal(graph, definitions, source, { blockId, socketName: socket.name }) }]));
  };

  const socketProblems = (blockId: string): Record<string, string[]> =>
    Object.fromEntries(Object.entries(problems.sockets).flatMap(([key, messages]) => (key.startsWith(`${blockId}.`) ? [[key.slice(blockId.length + 1), messages]] : [])));

  const fed = new Set(graph.connections.map((connection) => connection.targetBlockId));
  const drawingFrom = source && anchors[`out:${source.blockId}.${source.socketName}`];
  const columns = blockColumns(graph);

  return (
    <div className="graph">
      {/* Room for both lines is kept, so a refusal appearing or going never moves the sockets under the pointer. */}
      <div className="graph-messages">
        <p className="graph-status" role="status">
          {source
            ? `Drawing from ${source.blockId}.${source.socketName}: choose an input${hint ? ` (${hint})` : ''}. Escape cancels.`
            : 'To connect, choose an output (or drag from it), then an input.'}
        </p>
        {refusal && (
          <p role="alert" className="form-error">
            {refusal}
          </p>
        )}
      </div>
      <div className="graph-canvas" ref={canvas}>
        <svg className="graph-edges" aria-hidden="true">
          {graph.triggers.flatMap((trigger) =>
            graph.blocks
              .filter((block) => !fed.has(block.id))
              .map((block) => {
                const from = anchors[`trigger:${trigger.id}`];
                const to = anchors[`block:${block.id}`];
                return from && to ? <path key={`${trigger.id}-${block.id}`} className="graph-edge trigger" d={curve(from, to)} /> : null;
              }),
          )}
          {graph.connections.map((connection, index) => {
            const from = anchors[`out:${connection.sourceBlockId}.${connection.sourceSocketName}`];
            const to = anchors[`in:${connection.targetBlockId}.${connection.targetSocketName}`];
            return from && to ? <path key={index} className={`graph-edge${problems.connections[connectionKey(connection)] ? ' invalid' : ''}`} d={curve(from, to)} /> : null;
          })}
          {drawingFrom && pointer && <path className={`graph-edge drawing${hint ? ' refused' : ''}`} d={curve(drawingFrom, pointer)} />}
        </svg>
        <div className="graph-column" aria-label="Triggers" role="group">
          <h3>Triggers</h3>
          {graph.triggers.map((trigger) => (
            <section key={trigger.id} aria-label={`Trigger ${trigger.id}`} className={`graph-node trigger${problems.triggers[trigger.id] ? ' invalid' : ''}`}>
              <strong>{trigger.triggerName}</strong>
              <small>{trigger.configuration?.typeId ? `documents of ${trigger.configuration.typeId}` : 'documents of every type'}</small>
              {(problems.triggers[trigger.id] ?? []).map((message) => (
                <p key={message} className="graph-problem">
                  {message}
                </p>
              ))}
              <button type="button" className="link" onClick={() => onRemoveTrigger(trigger.id)} aria-label={`Remove trigger ${trigger.id}`}>
                Remove
              </button>
              <span className="graph-anchor-out" data-anchor={`trigger:${trigger.id}`} />
            </section>
          ))}
          {graph.triggers.length === 0 && <p className="graph-note">No trigger: the action never runs.</p>}
        </div>
        {columns.map((ids, index) => (
          <div key={index} className="graph-column">
            {ids.map((blockId) => {
              const block = graph.blocks.find((candidate) => candidate.id === blockId);
              if (!block) return null;
              return (
                <BlockNode
                  key={block.id}
                  block={block}
                  definition={definitions.get(block.blockName)}
                  selected={block.id === selectedBlockId}
                  source={source}
                  inputStates={inputStates(block.id)}
                  problems={problems.blocks[block.id] ?? []}
                  socketProblems={socketProblems(block.id)}
                  onSelect={() => onSelectBlock(block.id)}
                  onOutput={(socket) => (source?.blockId === block.id && source.socketName === socket.name ? cancel() : startAt(block.id, socket))}
                  onOutputPointerDown={(socket, event) => drag(block.id, socket, event)}
                  onInput={(socket) => (source ? finish({ blockId: block.id, socketName: socket.name }) : undefined)}
                  onInputHint={(socket) => setHint(source && socket ? connectionRefusal(graph, definitions, source, { blockId: block.id, socketName: socket.name }) : undefined)}
                />
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

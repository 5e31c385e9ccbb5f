import type { DraftConnection } from './graph-model';
import { connectionKey } from './graph-problems';

/** The connections as a list, each removable, with the server's problems with it: the graph's lines for keyboard and screen reader users. */
export function ConnectionList({ connections, problems, onRemove }: { connections: DraftConnection[]; problems: Record<string, string[]>; onRemove(connection: DraftConnection): void }) {
  if (connections.length === 0) return <p className="graph-note">No connection: blocks without one get the trigger payload.</p>;
  return (
    <ul aria-label="Connections" className="graph-connections">
      {connections.map((connection) => {
        const name = `${connection.sourceBlockId}.${connection.sourceSocketName} → ${connection.targetBlockId}.${connection.targetSocketName}`;
        const messages = problems[connectionKey(connection)] ?? [];
        return (
          <li key={connectionKey(connection)}>
            {name}
            <button type="button" className="link" aria-label={`Remove connection ${name}`} onClick={() => onRemove(connection)}>
              Remove
            </button>
            {messages.map((message) => (
              <p key={message} className="graph-problem">
                {message}
              </p>
            ))}
          </li>
        );
      })}
    </ul>
  );
}

import type { FieldChoice, FieldConflict } from '@platform/sync-client';
import { useState } from 'react';

const show = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

/**
 * The server's 409 as a three-way view per field (base, theirs, mine), with Accept theirs, Keep
 * mine, or a choice per field.
 */
export function ConflictView(props: {
  fields: FieldConflict[];
  onAcceptTheirs: () => void;
  onKeepMine: () => void;
  onResolve: (choices: Record<string, FieldChoice>) => void;
}) {
  const [choices, setChoices] = useState<Record<string, FieldChoice>>({});
  return (
    <section className="conflict" aria-label="Conflict">
      <h2>Conflict: this document changed on the server</h2>
      <table aria-label="Conflicting fields">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Base</th>
            <th scope="col">Theirs</th>
            <th scope="col">Mine</th>
            <th scope="col">Keep</th>
          </tr>
        </thead>
        <tbody>
          {props.fields.map((field) => (
            <tr key={field.path} className={field.serverTouched ? 'clash' : undefined}>
              <th scope="row">{field.path}</th>
              <td>{show(field.base)}</td>
              <td>{show(field.theirs)}</td>
              <td>{show(field.mine)}</td>
              <td>
                <fieldset>
                  <legend className="visually-hidden">Keep for {field.path}</legend>
                  {(['theirs', 'mine'] as const).map((choice) => (
                    <label key={choice}>
                      <input type="radio" name={`choice-${field.path}`} checked={(choices[field.path] ?? 'mine') === choice} onChange={() => setChoices({ ...choices, [field.path]: choice })} />
                      {choice === 'theirs' ? `Theirs for ${field.path}` : `Mine for ${field.path}`}
                    </label>
                  ))}
                </fieldset>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="actions">
        <button type="button" onClick={props.onAcceptTheirs}>Accept theirs</button>
        <button type="button" onClick={props.onKeepMine}>Keep mine</button>
        <button type="button" onClick={() => props.onResolve(choices)}>Resolve per field</button>
      </div>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { SelectField } from '../../components/select-field';
import { useLoad } from '../../components/use-load';
import { Link } from '../../router';
import { useSession } from '../../session';
import { actionsPath } from './action-paths';

/**
 * *Run an action on this document*, on a document's page: the actions the user owns (only an
 * action's owner may run it by hand), one of them run now on this document's latest change (POST
 * .../actions/{id}/runs); its result is on the action's runs screen. Nothing shows for a user who
 * owns no action.
 */
export function RunOnDocument({ projectId, typeId, documentId }: { projectId: string; typeId: string; documentId: string }) {
  const { user } = useSession();
  const actions = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/actions', { params: { path: { projectId } } }))).items, projectId);
  const owned = (actions.value ?? []).filter((action) => action.ownerId === user?.id);
  const [chosen, setChosen] = useState<string>();
  const [started, setStarted] = useState<{ id: string; title: string }>();
  const [error, setError] = useState<string>();
  if (owned.length === 0) return null;
  const action = owned.find((candidate) => candidate.id === chosen) ?? owned[0]!;

  const run = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStarted(undefined);
    setError(undefined);
    try {
      await unwrap(api.POST('/api/projects/{projectId}/actions/{actionId}/runs', { params: { path: { projectId, actionId: action.id } }, body: { typeId, documentId } }));
      setStarted({ id: action.id, title: action.title });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <form className="inline-form" aria-label="Run an action on this document" onSubmit={(event) => void run(event)}>
      <h2>Run an action on this document</h2>
      <SelectField label="Action" value={action.id} onChange={(event) => setChosen(event.target.value)}>
        {owned.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.title}
          </option>
        ))}
      </SelectField>
      <button type="submit">Run now</button>
      <p className="muted">It runs on the document’s latest change (its deletion, for a deleted document), whatever the action’s triggers say. Only actions you own (saved last) are listed.</p>
      {error && (
        <p role="alert" className="form-error">
          Not run: {error}
        </p>
      )}
      {started && (
        <p role="status">
          Started {started.title}: its result shows on <Link to={actionsPath(projectId, started.id, 'runs')}>its runs</Link>.
        </p>
      )}
    </form>
  );
}

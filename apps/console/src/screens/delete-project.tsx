import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { LoadError } from '../components/load-error';
import { navigate } from '../router';

/**
 * `Delete project` (`DELETE /api/projects/{projectId}`, the project's delete permission): the name is
 * typed out first, since everyone loses the project at once. Its restorers find it under *Recently
 * deleted* on the projects screen until its restore period ends.
 */
export function DeleteProject({ projectId, name }: { projectId: string; name: string }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<unknown>();

  const remove = async () => {
    try {
      await unwrap(api.DELETE('/api/projects/{projectId}', { params: { path: { projectId } } }));
      navigate('/projects');
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section aria-label="Delete project" className="inline-form">
      <h2>Delete project</h2>
      <p className="muted">
        Everyone loses the project at once: its documents, applications, domains, actions and audit trail. Those who may delete it can restore it from <em>Recently deleted</em> on the
        projects screen for 30 days (unless the operator set another period).
      </p>
      <Field label={`Type “${name}” to confirm`} name="confirmName" value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
      <button type="button" className="danger" disabled={typed !== name} onClick={() => void remove()}>
        Delete project
      </button>
      <LoadError error={error} />
    </section>
  );
}

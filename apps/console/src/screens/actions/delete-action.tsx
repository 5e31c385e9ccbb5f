import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { navigate } from '../../router';
import { actionsPath } from './action-paths';

/** `Delete action`, asked twice: the delete is soft on the server but the console cannot bring an action back. */
export function DeleteAction({ projectId, action }: { projectId: string; action: { id: string; title: string } }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const remove = async () => {
    try {
      await unwrap(api.DELETE('/api/projects/{projectId}/actions/{actionId}', { params: { path: { projectId, actionId: action.id } } }));
      navigate(actionsPath(projectId));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <>
      {asking ? (
        <span className="toolbar">
          Delete “{action.title}”? It never runs again.
          <button type="button" className="danger" onClick={() => void remove()}>
            Delete for good
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" className="danger" onClick={() => setAsking(true)}>
          Delete action
        </button>
      )}
      {error && (
        <span role="alert" className="form-error">
          Not deleted: {error}
        </span>
      )}
    </>
  );
}

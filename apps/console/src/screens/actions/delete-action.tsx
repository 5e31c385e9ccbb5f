import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ConfirmButton } from '../../components/confirm-button';
import { navigate } from '../../router';
import { actionsPath } from './action-paths';

/** `Delete action`, asked twice: the delete is soft on the server but the console cannot bring an action back. */
export function DeleteAction({ projectId, action }: { projectId: string; action: { id: string; title: string } }) {
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
      <ConfirmButton label="Delete action" question={`Delete “${action.title}”? It never runs again.`} confirmLabel="Delete for good" onConfirm={() => void remove()} />
      {error && (
        <span role="alert" className="form-error">
          Not deleted: {error}
        </span>
      )}
    </>
  );
}

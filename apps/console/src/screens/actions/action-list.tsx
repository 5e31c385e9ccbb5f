import { api, unwrap } from '../../api/client';
import { LoadError } from '../../components/load-error';
import { useLoad } from '../../components/use-load';
import { Link, navigate } from '../../router';
import { actionsPath } from './action-paths';
import { TrailLink } from '../../components/trail-link';
import { ACTIONS_TYPE_ID } from '../../audit/item-link';

/** The project's actions the caller may read, oldest first, with links to each one's editor and runs. */
export function ActionList({ projectId }: { projectId: string }) {
  const actions = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/actions', { params: { path: { projectId } } }))).items, projectId);
  return (
    <main>
      <h1>Actions</h1>
      <TrailLink projectId={projectId} typeId={ACTIONS_TYPE_ID}>Who created, changed and deleted actions: the audit trail</TrailLink>
      <button type="button" onClick={() => navigate(actionsPath(projectId, 'new'))}>
        New action
      </button>
      <LoadError error={actions.error} />
      <table aria-label="Actions">
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Triggers</th>
            <th scope="col">Blocks</th>
            <th scope="col">Runs</th>
          </tr>
        </thead>
        <tbody>
          {(actions.value ?? []).map((action) => (
            <tr key={action.id}>
              <td>
                <Link to={actionsPath(projectId, action.id)}>{action.title}</Link>
              </td>
              <td>{action.triggers.map((trigger) => (trigger.configuration?.typeId ? `${trigger.triggerName} (${trigger.configuration.typeId})` : trigger.triggerName)).join(', ') || 'none'}</td>
              <td>{action.blocks.map((block) => block.id).join(', ') || 'none'}</td>
              <td>
                <Link to={actionsPath(projectId, action.id, 'runs')} aria-label={`Runs of ${action.title}`}>
                  Runs
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {actions.value?.length === 0 && <p>No action yet: create one.</p>}
    </main>
  );
}

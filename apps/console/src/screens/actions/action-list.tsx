import { api, unwrap } from '../../api/client';
import { LoadError } from '../../components/load-error';
import { useLoad } from '../../components/use-load';
import { Link, navigate } from '../../router';
import { actionsPath } from './action-paths';
import { TrailLink } from '../../components/trail-link';
import { ACTIONS_TYPE_ID } from '../../audit/item-link';

/**
 * The project's actions the caller may read, oldest first, with links to each one's editor and
 * runs; for the project's updaters, the key its webhook calls are signed with, for receivers to check.
 */
export function ActionList({ projectId }: { projectId: string }) {
  const listed = useLoad(async () => unwrap(api.GET('/api/projects/{projectId}/actions', { params: { path: { projectId } } })), projectId);
  const actions = listed.value?.items;
  return (
    <main>
      <h1>Actions</h1>
      <TrailLink projectId={projectId} typeId={ACTIONS_TYPE_ID}>Who created, changed and deleted actions: the audit trail</TrailLink>
      <button type="button" onClick={() => navigate(actionsPath(projectId, 'new'))}>
        New action
      </button>
      <LoadError error={listed.error} />
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
          {(actions ?? []).map((action) => (
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
      {actions?.length === 0 && <p>No action yet: create one.</p>}
      {listed.value?.webhookKey && <WebhookKey signingKey={listed.value.webhookKey} />}
    </main>
  );
}

/** Shown folded: whoever holds the key can sign calls as this project's. */
function WebhookKey({ signingKey }: { signingKey: string }) {
  return (
    <details className="webhook-key">
      <summary>Webhook signing key</summary>
      <p className="muted">
        Calls of a webhook block without its own secret are signed with this key, over <code>{'<x-platform-timestamp>.<x-platform-project-id>.<body>'}</code> (HMAC-SHA256, in{' '}
        <code>x-platform-signature</code>). Give it to your receivers so they can check that a call comes from this project; it changes when the server&apos;s webhook secret does.
      </p>
      <code aria-label="Webhook signing key">{signingKey}</code>
    </details>
  );
}

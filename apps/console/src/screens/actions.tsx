import { lazy, Suspense } from 'react';
import { usePath } from '../router';
import { ActionList } from './actions/action-list';
import { ActionRuns } from './actions/action-runs';
import './actions/actions.css';

// The graph editor is the console's largest screen: loaded when opened, so the initial bundle does not grow.
const ActionEditor = lazy(() => import('./actions/action-editor'));

/** The actions of a project: the list, an action's editor (`new` for a new one), and its runs. */
export function Actions({ projectId }: { projectId: string }) {
  const path = usePath();
  const [actionId, view] = path.split('/').slice(4).map(decodeURIComponent);
  if (actionId && view === 'runs') return <ActionRuns projectId={projectId} actionId={actionId} />;
  if (actionId) {
    return (
      <Suspense fallback={<p className="loading">Loading the editor…</p>}>
        <ActionEditor projectId={projectId} actionId={actionId === 'new' ? undefined : actionId} />
      </Suspense>
    );
  }
  return <ActionList projectId={projectId} />;
}

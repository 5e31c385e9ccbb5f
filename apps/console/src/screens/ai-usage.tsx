import { api, unwrap } from '../api/client';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';

const count = (value: number) => value.toLocaleString('en');

/**
 * This hour's AI calls against the member's own budget and the project's (GET .../ai-usage), under
 * the AI switch: what a 429 `AI_RATE_LIMITED` would be about, and when the budgets start again.
 */
export function AiUsage({ projectId }: { projectId: string }) {
  const usage = useLoad(() => unwrap(api.GET('/api/projects/{projectId}/ai-usage', { params: { path: { projectId } } })), projectId);
  if (usage.error) return <LoadError error={usage.error} />;
  const value = usage.value;
  if (!value) return null;
  if (!value.configured) return <p className="muted">No AI provider is configured on this server, so no AI call is made.</p>;
  const resets = new Date(value.windowEndsAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <p className="muted" aria-label="AI calls this hour">
      {`This hour: ${count(value.project.calls)} of ${count(value.project.limit)} AI calls in this project, ${count(value.you.calls)} of ${count(value.you.limit)} of yours. The budgets start again at ${resets}.`}
    </p>
  );
}

import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { LoadError } from '../components/load-error';
import { useProject } from '../project-context';
import { AiUsage } from './ai-usage';
import { DeleteProject } from './delete-project';
import { ProjectNameForm } from './project-name-form';
import { ProjectTenantForm } from './project-tenant-form';
import { TrailLink } from '../components/trail-link';
import { PROJECT_SETTINGS_TYPE_ID } from '../audit/item-link';

/**
 * The project's settings: its name, its tenant (move it to another), the AI toggle (`PATCH .../ai-settings`, needs the project's update
 * permission; a refusal is shown beside the switch, which keeps the stored value) with this hour's AI calls, and its deletion.
 */
export function ProjectSettings({ projectId }: { projectId: string }) {
  const project = useProject();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();

  const toggle = async (aiEnabled: boolean) => {
    setSaving(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await unwrap(api.PATCH('/api/projects/{projectId}/ai-settings', { params: { path: { projectId } }, body: { aiEnabled } }));
      await project.reload();
      setNotice(aiEnabled ? 'AI features are on' : 'AI features are off');
    } catch (failure) {
      setError(failure);
      // The switch shows the stored value again.
      await project.reload();
    } finally {
      setSaving(false);
    }
  };

  return (
    <main>
      <h1>Settings</h1>
      <TrailLink projectId={projectId} typeId={PROJECT_SETTINGS_TYPE_ID}>Who changed these settings: the audit trail</TrailLink>
      <LoadError error={project.error} />
      {project.value && <ProjectNameForm projectId={projectId} name={project.value.name} onRenamed={project.reload} />}
      {project.value && <ProjectTenantForm projectId={projectId} tenantId={project.value.tenantId} onMoved={project.reload} />}
      {project.value && (
        <section aria-label="AI" className="inline-form">
          <h2>AI</h2>
          <label className="switch">
            <input type="checkbox" role="switch" checked={project.value.aiEnabled} disabled={saving} onChange={(event) => void toggle(event.target.checked)} /> AI features
          </label>
          <p className="muted">Agents, extraction and the help chat answer only while this is on. Changing it needs the project's update permission.</p>
          <AiUsage projectId={projectId} />
          {notice && <p role="status">{notice}</p>}
          <LoadError error={error} />
        </section>
      )}
      {project.value && <DeleteProject projectId={projectId} name={project.value.name} />}
    </main>
  );
}

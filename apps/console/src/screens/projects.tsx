import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { ProjectCards } from '../components/project-cards';
import { SelectField } from '../components/select-field';
import { useLoad } from '../components/use-load';
import { useSession } from '../session';
import { openProject } from '../open-project';
import { DeletedProjects } from './deleted-projects';
import { MyInvitations } from './my-invitations';

export function Projects() {
  const { user, refresh } = useSession();
  const projects = useLoad(async () => (await unwrap(api.GET('/api/projects'))).items, 'projects');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [creating, setCreating] = useState(false);
  const [restored, setRestored] = useState<string>();
  // Shared tenants the user belongs to: a new project may go to one of them instead of the personal one.
  const tenants = useLoad(async () => (await unwrap(api.GET('/api/tenants'))).items, 'tenants');
  const teams = (tenants.value ?? []).filter((tenant) => !tenant.personal);

  const recent = user?.recentProjects ?? {};
  const ordered = [...(projects.value ?? [])].sort((a, b) => (recent[b.id] ?? 0) - (recent[a.id] ?? 0) || a.name.localeCompare(b.name));

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      const fields = new FormData(form);
      const tenantId = String(fields.get('tenantId') ?? '');
      const project = await unwrap(api.POST('/api/projects', { body: { name: String(fields.get('name')), ...(tenantId ? { tenantId } : {}) } }));
      setErrors(noErrors);
      setCreating(false);
      await openProject(project.id, refresh);
    } catch (error) {
      setErrors(formErrors(error, ['name', 'tenantId']));
    }
  };

  return (
    <main>
      <h1>Projects</h1>
      <MyInvitations onProjectJoined={(projectId) => openProject(projectId, refresh)} onTenantJoined={projects.reload} />
      <button type="button" onClick={() => setCreating(true)}>New project</button>
      {creating && (
        <form onSubmit={create} className="inline-form" noValidate aria-label="New project">
          <Field label="Project name" name="name" autoFocus error={errors.fields.name} />
          <LoadError error={tenants.error} />
          {teams.length > 0 && (
            <SelectField label="Tenant" name="tenantId" defaultValue="" error={errors.fields.tenantId}>
              <option value="">Personal</option>
              {teams.map((tenant) => (
                <option key={tenant.id} value={tenant.id}>
                  {tenant.name}
                </option>
              ))}
            </SelectField>
          )}
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit">Save</button>
        </form>
      )}
      <LoadError error={projects.error} />
      <ProjectCards label="Projects" projects={ordered} />
      {projects.value?.length === 0 && <p>No project yet: create one.</p>}
      {restored && <p role="status">{restored} is back, with all its data.</p>}
      <DeletedProjects
        onRestored={(name) => {
          setRestored(name);
          projects.reload();
        }}
      />
    </main>
  );
}

import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { ProjectCards } from '../components/project-cards';
import { useLoad } from '../components/use-load';
import { useSession } from '../session';
import { openProject } from '../open-project';
import { MyInvitations } from './my-invitations';


export function Projects() {
  const { user, refresh } = useSession();
  const projects = useLoad(async () => (await unwrap(api.GET('/api/projects'))).items, 'projects');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [creating, setCreating] = useState(false);

  const recent = user?.recentProjects ?? {};
  const ordered = [...(projects.value ?? [])].sort((a, b) => (recent[b.id] ?? 0) - (recent[a.id] ?? 0) || a.name.localeCompare(b.name));

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      const project = await unwrap(api.POST('/api/projects', { body: { name: String(new FormData(form).get('name')) } }));
      setErrors(noErrors);
      setCreating(false);
      await openProject(project.id, refresh);
    } catch (error) {
      setErrors(formErrors(error, ['name']));
    }
  };

  return (
    <main>
      <h1>Projects</h1>
      <MyInvitations onProjectJoined={(projectId) => openProject(projectId, refresh)} onTenantJoined={projects.reload} />
      <button type="button" onClick={() => setCreating(true)}>New project</button>
      {creating && (
        <form onSubmit={create} className="inline-form" noValidate>
          <Field label="Project name" name="name" autoFocus error={errors.fields.name} />
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit">Save</button>
        </form>
      )}
      <LoadError error={projects.error} />
      <ProjectCards label="Projects" projects={ordered} />
      {projects.value?.length === 0 && <p>No project yet: create one.</p>}
    </main>
  );
}

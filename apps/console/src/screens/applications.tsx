import { lazy, Suspense, useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { titleOf } from '../applications/application-title';
import { loadApplications } from '../applications/load-applications';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { SubmitForm } from '../components/submit-form';
import { useLoad } from '../components/use-load';
import { Link, match, usePath } from '../router';
import { projectPath } from '../paths';

// The editor checks widget trees with the registry's schemas: loaded when an application is opened.
const ApplicationDetail = lazy(() => import('./application-detail'));

function ApplicationList({ projectId }: { projectId: string }) {
  const applications = useLoad(() => loadApplications(projectId), projectId);
  const [creating, setCreating] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const base = `${projectPath(projectId)}/applications`;

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const id = String(form.get('id') ?? '').trim();
    const title = String(form.get('title') ?? '').trim();
    if (!title) {
      setErrors({ fields: { title: 'A title is needed' } });
      return;
    }
    try {
      await unwrap(api.POST('/api/projects/{projectId}/applications', { params: { path: { projectId } }, body: { ...(id ? { id } : {}), title: { en: title }, routes: [] } }));
      setErrors(noErrors);
      setCreating(false);
      applications.reload();
    } catch (error) {
      setErrors(formErrors(error, ['id', 'title']));
    }
  };

  return (
    <main>
      <h1>Applications</h1>
      <button type="button" onClick={() => setCreating(true)}>
        New application
      </button>
      {creating && (
        <SubmitForm label="New application" className="inline-form" submitLabel="Create" formError={errors.form} onSubmit={create}>
          <Field label="Application id (optional)" name="id" autoFocus error={errors.fields.id} />
          <Field label="Title (English)" name="title" error={errors.fields.title} />
        </SubmitForm>
      )}
      <LoadError error={applications.error} />
      <table aria-label="Applications">
        <thead>
          <tr>
            <th scope="col">Application</th>
            <th scope="col">Id</th>
            <th scope="col">Published version</th>
            <th scope="col">Published at</th>
          </tr>
        </thead>
        <tbody>
          {(applications.value ?? []).map((application) => (
            <tr key={application.id}>
              <td>
                <Link to={`${base}/${encodeURIComponent(application.id)}`}>{titleOf(application)}</Link>
              </td>
              <td>{application.id}</td>
              <td>{typeof application.publishedVersionNumber === 'number' ? application.publishedVersionNumber : 'not published'}</td>
              <td>{typeof application.publishedAt === 'number' ? new Date(application.publishedAt).toLocaleString() : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {applications.value?.length === 0 && <p>No application yet: create one.</p>}
    </main>
  );
}

/** Applications of a project: the list at `.../applications`, one application at `.../applications/{appId}`. */
export function Applications({ projectId }: { projectId: string }) {
  const path = usePath();
  const appId = match('/projects/:projectId/applications/:appId', path)?.appId;
  if (!appId) return <ApplicationList projectId={projectId} />;
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <ApplicationDetail projectId={projectId} appId={appId} />
    </Suspense>
  );
}

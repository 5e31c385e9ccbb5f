import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { applicationErrors, problemErrors } from '../applications/application-errors';
import { checkApplication, hasKiosk } from '../applications/application-rules';
import { titleOf } from '../applications/application-title';
import { ApplicationDomains } from '../components/application-domains';
import { TextField } from '../components/field';
import { noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { SubmitForm } from '../components/submit-form';
import { useLoad } from '../components/use-load';
import { authorName } from '../history/authors';
import { Link } from '../router';
import { projectPath } from '../paths';

const json = (value: unknown): string => JSON.stringify(value ?? null, null, 2);

/** Parses one JSON field of the form, or says which field is not JSON. */
function parseField(form: FormData, field: 'title' | 'routes'): { value: unknown } | { error: FormErrors } {
  try {
    return { value: JSON.parse(String(form.get(field) ?? '')) };
  } catch (error) {
    return { error: { fields: { [field]: `Not JSON: ${(error as Error).message}` } } };
  }
}

/**
 * One application: edit its title and routes (checked by the widget registry's rules, then by
 * the server), publish it, its versions newest first, and the domains that serve it.
 */
export default function ApplicationDetail({ projectId, appId }: { projectId: string; appId: string }) {
  const application = useLoad(() => unwrap(api.GET('/api/projects/{projectId}/applications/{id}', { params: { path: { projectId, id: appId } } })), `${projectId}/${appId}`);
  const versions = useLoad(async () => {
    const list = await unwrap(api.GET('/api/projects/{projectId}/applications/{appId}/versions', { params: { path: { projectId, appId } } }));
    return Promise.all(list.map(async (version) => ({ ...version, publisher: await authorName(version.publishedBy) })));
  }, `${projectId}/${appId}`);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [saved, setSaved] = useState('');
  const [publishing, setPublishing] = useState<{ message?: string; error?: string }>({});

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved('');
    const current = application.value;
    if (!current) return;
    const form = new FormData(event.currentTarget);
    const title = parseField(form, 'title');
    const routes = parseField(form, 'routes');
    if ('error' in title || 'error' in routes) {
      setErrors({ fields: { ...('error' in title ? title.error.fields : {}), ...('error' in routes ? routes.error.fields : {}) } });
      return;
    }
    const checked = checkApplication({ title: title.value, routes: routes.value });
    if ('problems' in checked) {
      setErrors(problemErrors(checked.problems));
      return;
    }
    try {
      await unwrap(api.PATCH('/api/projects/{projectId}/applications/{id}', { params: { path: { projectId, id: appId } }, body: { baseRevision: current.revision, modifier: { $set: { ...checked.fields } } } }));
      // The form is made again from the saved revision: what is typed after "Saved." stays.
      await application.reload();
      setErrors(noErrors);
      setSaved('Saved.');
    } catch (error) {
      setErrors(applicationErrors(error));
    }
  };

  const publish = async () => {
    try {
      const version = await unwrap(api.POST('/api/projects/{projectId}/applications/{appId}/publish', { params: { path: { projectId, appId } } }));
      await Promise.all([versions.reload(), application.reload()]);
      setPublishing({ message: `Published version ${version.versionNumber}.` });
    } catch (error) {
      setPublishing({ error: error instanceof Error ? error.message : String(error) });
    }
  };

  const current = application.value;
  return (
    <main>
      <p className="crumbs">
        <Link to={`${projectPath(projectId)}/applications`}>Applications</Link> / {appId}
      </p>
      <h1>{current ? titleOf(current) : appId}</h1>
      <LoadError error={application.error} />
      {current && hasKiosk(current) && (
        <p>
          <a href={`/kiosk/${encodeURIComponent(projectId)}/${encodeURIComponent(appId)}`} target="_blank" rel="noreferrer">
            Open the check-in kiosk
          </a>
        </p>
      )}
      {current && (
        <SubmitForm label="Application" className="editor" submitLabel="Save" formError={errors.form} status={saved} onSubmit={save} key={current.revision}>
          <TextField label="Title (language code to text, JSON)" name="title" rows={4} spellCheck={false} defaultValue={json(current.title)} error={errors.fields.title} />
          <TextField label="Routes (JSON: path and widget tree per page)" name="routes" rows={16} spellCheck={false} defaultValue={json(current.routes ?? [])} error={errors.fields.routes} />
        </SubmitForm>
      )}

      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <button type="button" onClick={() => void publish()}>
          Publish
        </button>
        <span role="status">{publishing.message}</span>
        {publishing.error && (
          <p role="alert" className="form-error">
            {publishing.error}
          </p>
        )}
        <LoadError error={versions.error} />
        <table aria-label="Versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Title</th>
              <th scope="col">Published by</th>
              <th scope="col">Published at</th>
            </tr>
          </thead>
          <tbody>
            {(versions.value ?? []).map((version) => (
              <tr key={version.id}>
                <td>{version.versionNumber}</td>
                <td>{titleOf(version)}</td>
                <td>{version.publisher}</td>
                <td>{new Date(version.createdAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {versions.value?.length === 0 && <p>Not published yet.</p>}
      </section>

      <ApplicationDomains projectId={projectId} appId={appId} versions={versions.value ?? []} />
    </main>
  );
}

import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { Field } from './field';
import { formErrors, noErrors, type FormErrors } from './form-errors';
import { LoadError } from './load-error';
import { SubmitForm } from './submit-form';
import { useLoad } from './use-load';

type Domain = paths['/api/projects/{projectId}/domains']['get']['responses'][200]['content']['application/json'][number];
type Version = { id: string; versionNumber: number };

/** What `GET /api/public/domains/{hostname}` answered: the served version, or the refusal. */
type Preview = { hostname: string; answer?: unknown; versionNumber?: number; pinned?: boolean; error?: string };

const numberOf = (versions: readonly Version[], versionId: string | undefined) => versions.find((version) => version.id === versionId)?.versionNumber;

function DomainRow(props: { domain: Domain; versions: readonly Version[]; onChange: (domain: Domain) => void; onPreview: (preview: Preview) => void; onError: (message: string) => void }) {
  const { domain, versions } = props;
  const [chosen, setChosen] = useState(domain.targetVersionId ?? versions[0]?.id ?? '');
  const projectId = domain.projectId;
  const run = async (call: () => Promise<Domain>) => {
    try {
      props.onChange(await call());
    } catch (error) {
      props.onError(error instanceof Error ? error.message : String(error));
    }
  };
  const assign = (targetVersionId: string | null) =>
    run(() => unwrap(api.POST('/api/projects/{projectId}/domains/{domainId}/assign', { params: { path: { projectId, domainId: domain.id } }, body: { targetType: 'application', targetId: domain.targetId!, targetVersionId } })));
  const verify = () => run(() => unwrap(api.POST('/api/projects/{projectId}/domains/{domainId}/verify', { params: { path: { projectId, domainId: domain.id } } })));
  const preview = async () => {
    try {
      const answer = await unwrap(api.GET('/api/public/domains/{hostname}', { params: { path: { hostname: domain.hostname } } }));
      props.onPreview({ hostname: domain.hostname, answer, versionNumber: answer.version.versionNumber, pinned: answer.pinned });
    } catch (error) {
      props.onPreview({ hostname: domain.hostname, error: error instanceof Error ? error.message : String(error) });
    }
  };
  const pinnedNumber = numberOf(versions, domain.targetVersionId);

  return (
    <tr>
      <th scope="row">{domain.hostname}</th>
      <td>
        {domain.status}
        {domain.verification && (
          <small className="verification">
            Add the DNS record {domain.verification.record.type} <code>{domain.verification.record.name}</code> = <code>{domain.verification.record.value}</code>, then verify.
          </small>
        )}
        {domain.status !== 'verified' && (
          <button type="button" onClick={() => void verify()}>
            Verify
          </button>
        )}
      </td>
      <td>{domain.targetVersionId ? `version ${pinnedNumber ?? domain.targetVersionId} (pinned)` : 'the latest version'}</td>
      <td>
        <label>
          <span className="visually-hidden">Version for {domain.hostname}</span>
          <select value={chosen} onChange={(event) => setChosen(event.target.value)} disabled={versions.length === 0}>
            {versions.map((version) => (
              <option key={version.id} value={version.id}>
                version {version.versionNumber}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={!chosen} onClick={() => void assign(chosen)}>
          Pin
        </button>
        {domain.targetVersionId && (
          <button type="button" onClick={() => void assign(null)}>
            Unpin
          </button>
        )}
        <button type="button" onClick={() => void preview()}>
          Preview
        </button>
      </td>
    </tr>
  );
}

/**
 * The project's domains that serve this application: add one, verify it, pin it to a version or
 * unpin it (the latest is served), and preview what the public resolution answers for it.
 */
export function ApplicationDomains({ projectId, appId, versions }: { projectId: string; appId: string; versions: readonly Version[] }) {
  const domains = useLoad(() => unwrap(api.GET('/api/projects/{projectId}/domains', { params: { path: { projectId } } })), projectId);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [rowError, setRowError] = useState('');
  const [preview, setPreview] = useState<Preview>();
  const mine = (domains.value ?? []).filter((domain) => domain.targetId === appId);

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const hostname = String(new FormData(form).get('hostname') ?? '').trim();
    try {
      await unwrap(api.POST('/api/projects/{projectId}/domains', { params: { path: { projectId } }, body: { hostname, targetType: 'application', targetId: appId } }));
      setErrors(noErrors);
      form.reset();
      domains.reload();
    } catch (error) {
      setErrors(formErrors(error, ['hostname']));
    }
  };
  const changed = () => {
    setRowError('');
    setPreview(undefined);
    domains.reload();
  };

  return (
    <section aria-labelledby="domains-heading">
      <h2 id="domains-heading">Domains</h2>
      <SubmitForm label="Add domain" className="inline-form" submitLabel="Add domain" formError={errors.form} onSubmit={add}>
        <Field label="Hostname" name="hostname" placeholder="kiosk.example.org" error={errors.fields.hostname} />
      </SubmitForm>
      <LoadError error={domains.error} />
      {rowError && (
        <p role="alert" className="form-error">
          {rowError}
        </p>
      )}
      <table aria-label="Domains">
        <thead>
          <tr>
            <th scope="col">Hostname</th>
            <th scope="col">Status</th>
            <th scope="col">Serves</th>
            <th scope="col">Pin</th>
          </tr>
        </thead>
        <tbody>
          {mine.map((domain) => (
            <DomainRow key={`${domain.id}:${domain.revision}`} domain={domain} versions={versions} onChange={changed} onPreview={setPreview} onError={setRowError} />
          ))}
        </tbody>
      </table>
      {domains.value && mine.length === 0 && <p>No domain serves this application yet.</p>}
      {preview && (
        <section aria-label={`Preview of ${preview.hostname}`}>
          <h3>GET /api/public/domains/{preview.hostname}</h3>
          {preview.error ? (
            <p role="alert" className="form-error">
              {preview.error}
            </p>
          ) : (
            <>
              <p>
                Serves version {preview.versionNumber}
                {preview.pinned ? ' (pinned)' : ' (the latest)'}
              </p>
              <pre className="json">{JSON.stringify(preview.answer, null, 2)}</pre>
            </>
          )}
        </section>
      )}
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { Day } from '../components/day';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { lastUsed } from '../components/last-used';
import { LabelledTable } from '../components/labelled-table';
import { LoadError } from '../components/load-error';
import { SelectField } from '../components/select-field';
import { SubmitForm } from '../components/submit-form';
import { useLoad } from '../components/use-load';
import { ChangeToken } from './change-token';
import { TokenAccessField, tokenGrantFields, TokenProjectsField } from './token-fields';

type AccessToken = paths['/api/me/tokens']['get']['responses'][200]['content']['application/json']['tokens'][number];

const FIELDS = ['name', 'expiresInDays', 'access'] as const;
const LIFETIMES = [7, 30, 90, 365] as const;
const DEFAULT_LIFETIME = 90;

const loadTokens = async (): Promise<AccessToken[]> => (await unwrap(api.GET('/api/me/tokens'))).tokens;
const loadProjects = async () => (await unwrap(api.GET('/api/projects'))).items;

/**
 * Personal access tokens: make one for a program (its secret shown once, to copy), for every
 * project or only those ticked, see the live ones, change or revoke any.
 */
export function AccountTokens({ onStatus }: { onStatus: (status: string) => void }) {
  const tokens = useLoad(loadTokens, 'tokens');
  const projects = useLoad(loadProjects, 'projects');
  const projectName = (id: string) => projects.value?.find((project) => project.id === id)?.name ?? id;
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [made, setMade] = useState<{ id: string; name: string; token: string }>();
  const [revokeError, setRevokeError] = useState<unknown>();
  /** The token whose revocation waits for a second click: a program using it stops at once. */
  const [confirming, setConfirming] = useState<string>();
  const [changing, setChanging] = useState<string>();
  const changingToken = tokens.value?.find((token) => token.id === changing);

  const make = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    try {
      const { access, projects: chosen } = tokenGrantFields(fields);
      const body = { name: String(fields.get('name')), expiresInDays: Number(fields.get('expiresInDays')), access, ...(chosen.length > 0 ? { projects: chosen } : {}) };
      const { id, name, token } = await unwrap(api.POST('/api/me/tokens', { body }));
      setErrors(noErrors);
      form.reset();
      setMade({ id, name, token });
      tokens.reload();
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    }
  };

  const revoke = async (token: AccessToken) => {
    setConfirming(undefined);
    try {
      await unwrap(api.DELETE('/api/me/tokens/{tokenId}', { params: { path: { tokenId: token.id } } }));
      setRevokeError(undefined);
      if (made?.id === token.id) setMade(undefined);
      onStatus(`Revoked the token ${token.name}: it no longer works.`);
    } catch (error) {
      setRevokeError(error);
    }
    tokens.reload();
  };

  return (
    <>
      <SubmitForm label="New access token" className="account" submitLabel="Make token" formError={errors.form} onSubmit={make}>
        <Field label="Token name" name="name" placeholder="nightly export" error={errors.fields.name} />
        <SelectField label="Expires after" name="expiresInDays" defaultValue={DEFAULT_LIFETIME} error={errors.fields.expiresInDays}>
          {LIFETIMES.map((days) => (
            <option key={days} value={days}>
              {days} days
            </option>
          ))}
        </SelectField>
        <TokenAccessField defaultValue="read-write" error={errors.fields.access} />
        <TokenProjectsField projects={projects.value} />
      </SubmitForm>
      {made && (
        <div className="new-token" role="region" aria-label="New token">
          <p>
            The token <strong>{made.name}</strong>: copy it now, it is not shown again.
          </p>
          <code>{made.token}</code>
          <button type="button" onClick={() => void navigator.clipboard.writeText(made.token).then(() => onStatus('Copied the token.'))}>
            Copy
          </button>
        </div>
      )}
      <LoadError error={tokens.error ?? revokeError} />
      {tokens.value && tokens.value.length > 0 && (
        <LabelledTable label="Access tokens" headers={['Name', 'Made', 'Expires', 'Last used', 'Access', 'Projects', 'Change']}>
          {tokens.value.map((token) => (
            <tr key={token.id}>
              <td>{token.name}</td>
              <td><Day at={token.createdAt} /></td>
              <td><Day at={token.expiresAt} /></td>
              <td>{lastUsed(token.lastUsedAt)}</td>
              <td>{token.access === 'read' ? 'read only' : 'read and write'}</td>
              <td>{token.projects ? token.projects.map(projectName).join(', ') : 'all'}</td>
              <td>
                {confirming === token.id ? (
                  <>
                    <button type="button" className="danger" onClick={() => void revoke(token)}>
                      Confirm revoke
                    </button>
                    <button type="button" onClick={() => setConfirming(undefined)}>
                      Keep
                    </button>
                  </>
                ) : (
                  <>
                    <button type="button" onClick={() => setChanging(token.id)} aria-label={`Change ${token.name}`}>
                      Change
                    </button>
                    <button type="button" className="danger" onClick={() => setConfirming(token.id)} aria-label={`Revoke ${token.name}`}>
                      Revoke
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </LabelledTable>
      )}
      {changingToken && (
        <ChangeToken
          key={changingToken.id}
          token={changingToken}
          projects={projects.value}
          onCancel={() => setChanging(undefined)}
          onChanged={(name) => {
            setChanging(undefined);
            if (made?.id === changingToken.id) setMade({ ...made, name });
            onStatus(`Changed the token ${name}: it holds from its next request.`);
            tokens.reload();
          }}
        />
      )}
      {tokens.value?.length === 0 && <p className="muted">No access token.</p>}
    </>
  );
}

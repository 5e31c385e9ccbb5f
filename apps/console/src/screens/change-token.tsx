import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { SubmitForm } from '../components/submit-form';
import { TokenAccessField, tokenGrantFields, TokenProjectsField } from './token-fields';

const FIELDS = ['name', 'access', 'projects'] as const;

/**
 * *Change <name>*: rename an access token, or change what it may do (PATCH /api/me/tokens/{id});
 * its secret and expiry stay, so the program using it goes on without a new secret.
 */
export function ChangeToken({ token, projects, onChanged, onCancel }: { token: { id: string; name: string; access: 'read' | 'read-write'; projects?: string[] }; projects: ReadonlyArray<{ id: string; name: string }> | undefined; onChanged: (name: string) => void; onCancel: () => void }) {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const { access, projects: ticked } = tokenGrantFields(fields);
    try {
      const changed = await unwrap(api.PATCH('/api/me/tokens/{tokenId}', { params: { path: { tokenId: token.id } }, body: { name: String(fields.get('name')), access, projects: ticked.length > 0 ? ticked : null } }));
      setErrors(noErrors);
      onChanged(changed.name);
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    }
  };
  const cancel = (
    <button type="button" className="danger" onClick={onCancel}>
      Cancel
    </button>
  );
  return (
    <SubmitForm label={`Change ${token.name}`} className="account" submitLabel="Save token" formError={errors.form ?? errors.fields.projects} beside={cancel} onSubmit={save}>
      <h3 className="form-title">Change {token.name}</h3>
      <Field label="Token name" name="name" defaultValue={token.name} error={errors.fields.name} />
      <TokenAccessField defaultValue={token.access} error={errors.fields.access} />
      <TokenProjectsField projects={projects} ticked={token.projects} />
      <p className="muted">Its secret and expiry stay: the program using it keeps working, with what it may do from its next request.</p>
    </SubmitForm>
  );
}

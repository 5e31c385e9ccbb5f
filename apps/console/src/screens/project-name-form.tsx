import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { SubmitForm } from '../components/submit-form';

/** Renames the project (`PATCH /api/projects/{projectId}`, the project's update permission); a refusal shows beside the name. */
export function ProjectNameForm({ projectId, name, onRenamed }: { projectId: string; name: string; onRenamed: () => Promise<void> }) {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState<string>();

  const rename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus(undefined);
    try {
      const renamed = await unwrap(api.PATCH('/api/projects/{projectId}', { params: { path: { projectId } }, body: { name: String(new FormData(event.currentTarget).get('name')) } }));
      await onRenamed();
      setErrors(noErrors);
      setStatus(`Renamed to ${renamed.name}`);
    } catch (error) {
      setErrors(formErrors(error, ['name']));
    }
  };

  return (
    <section aria-label="Name" className="inline-form">
      <h2>Name</h2>
      <SubmitForm label="Rename project" className="row-form" submitLabel="Rename" formError={errors.form} status={status} onSubmit={rename}>
        <Field label="Project name" name="name" defaultValue={name} key={name} error={errors.fields.name} />
      </SubmitForm>
    </section>
  );
}

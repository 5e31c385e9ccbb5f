import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { SubmitForm } from '../components/submit-form';

/**
 * *Add sample documents*: documents made up from the type's schema (POST .../sample-data), for a
 * first look at a new type's grid; they arrive in the grid as any other client's writes do.
 */
export function AddSampleDocuments({ projectId, typeId, onDone }: { projectId: string; typeId: string; onDone: (status: string) => void }) {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const count = Number(new FormData(event.currentTarget).get('count'));
    try {
      const { items } = await unwrap(api.POST('/api/projects/{projectId}/types/{typeId}/sample-data', { params: { path: { projectId, typeId } }, body: { count } }));
      onDone(`Added ${items.length} sample documents, made up from the type’s schema.`);
    } catch (error) {
      setErrors(formErrors(error, ['count']));
    }
  };
  return (
    <SubmitForm label="Add sample documents" className="inline-form" submitLabel="Add them" formError={errors.form} onSubmit={add}>
      <Field label="How many (1 to 100)" name="count" type="number" inputMode="numeric" min={1} max={100} defaultValue={10} error={errors.fields.count} />
      <p className="muted">Each field is filled as the schema says (names, emails, dates, numbers in range); without a schema they are empty documents.</p>
    </SubmitForm>
  );
}

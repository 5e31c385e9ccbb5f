import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { Field, TextField } from '../../components/field';
import { formErrors, noErrors, type FormErrors } from '../../components/form-errors';
import { SubmitForm } from '../../components/submit-form';
import type { Agent } from './agent-record';

const FIELDS = ['name', 'instructions', 'modelOptions'] as const;

/** The model options the form holds: an empty field leaves that option to the server. */
function modelOptionsOf(form: FormData): Agent['modelOptions'] {
  const model = String(form.get('model')).trim();
  const temperature = String(form.get('temperature')).trim();
  return { ...(model ? { model } : {}), ...(temperature ? { temperature: Number(temperature) } : {}) };
}

/**
 * *Agent*: its name, instructions, model and temperature, saved with the revision they were read
 * at (PATCH with `baseRevision`), so a change someone made meanwhile is not overwritten silently.
 */
export function AgentSettings({ projectId, agent, onSaved }: { projectId: string; agent: Agent; onSaved: () => Promise<void> }) {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState<string>();
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setStatus(undefined);
    try {
      const $set = { name: String(form.get('name')).trim(), instructions: String(form.get('instructions')), modelOptions: modelOptionsOf(form) };
      await unwrap(api.PATCH('/api/projects/{projectId}/ai-agents/{id}', { params: { path: { projectId, id: agent.id } }, body: { baseRevision: agent.revision, modifier: { $set } } }));
      // The next save's base revision is the one just saved.
      await onSaved();
      setErrors(noErrors);
      setStatus('Saved.');
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    }
  };
  return (
    <SubmitForm label="Agent" className="inline-form" submitLabel="Save agent" formError={errors.form} status={status} onSubmit={save}>
      <h2 className="form-title">Settings</h2>
      <Field label="Name" name="name" defaultValue={agent.name} error={errors.fields.name} />
      <TextField label="Instructions" name="instructions" rows={6} defaultValue={agent.instructions ?? ''} error={errors.fields.instructions} />
      <Field label="Model (empty: the server’s)" name="model" defaultValue={agent.modelOptions?.model ?? ''} spellCheck={false} />
      <Field label="Temperature (0 to 2, empty: the model’s)" name="temperature" inputMode="decimal" defaultValue={agent.modelOptions?.temperature?.toString() ?? ''} error={errors.fields.modelOptions} />
    </SubmitForm>
  );
}

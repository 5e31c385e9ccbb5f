import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { Field, TextField } from '../../components/field';
import { formErrors, noErrors, type FormErrors } from '../../components/form-errors';
import { LabelledTable } from '../../components/labelled-table';
import { LoadError } from '../../components/load-error';
import { SubmitForm } from '../../components/submit-form';
import { useLoad } from '../../components/use-load';
import { Link, navigate } from '../../router';
import { agentsPath } from './agent-paths';
import { loadAgents } from './agent-record';

/**
 * *Agents*: the project's AI agents (a name and the instructions every chat with it starts from),
 * and *New agent*. Managing agents works with AI switched off; chatting needs it on.
 */
export function AgentList({ projectId }: { projectId: string }) {
  const agents = useLoad(() => loadAgents(projectId), projectId);
  const [creating, setCreating] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      const made = await unwrap(api.POST('/api/projects/{projectId}/ai-agents', { params: { path: { projectId } }, body: { name: String(form.get('name')).trim(), instructions: String(form.get('instructions')) } }));
      navigate(agentsPath(projectId, made.id));
    } catch (error) {
      setErrors(formErrors(error, ['name', 'instructions']));
    }
  };

  return (
    <main>
      <h1>Agents</h1>
      <p className="muted">An agent answers in a chat as its instructions say, through the AI provider the server is set up with; the project’s AI switch is in its settings.</p>
      <button type="button" onClick={() => setCreating(true)}>
        New agent
      </button>
      {creating && (
        <SubmitForm label="New agent" className="inline-form" submitLabel="Create agent" formError={errors.form} onSubmit={create}>
          <Field label="Name" name="name" autoFocus error={errors.fields.name} />
          <TextField label="Instructions" name="instructions" rows={5} placeholder="You answer questions about our orders, briefly." error={errors.fields.instructions} />
        </SubmitForm>
      )}
      <LoadError error={agents.error} />
      {agents.value && agents.value.length > 0 && (
        <LabelledTable label="Agents" headers={['Agent', 'Model', 'Changed']}>
          {agents.value.map((agent) => (
            <tr key={agent.id}>
              <td>
                <Link to={agentsPath(projectId, agent.id)}>{agent.name}</Link>
              </td>
              <td>{agent.modelOptions?.model ?? 'the server’s'}</td>
              <td>{new Date(agent.updatedAt).toLocaleString()}</td>
            </tr>
          ))}
        </LabelledTable>
      )}
      {agents.value?.length === 0 && <p>No agent yet: create one.</p>}
    </main>
  );
}

import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { operations, type Operation } from '../access/access-modifier';
import { plainPermission } from '../access/permission-names';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { Link } from '../router';
import { documentPath, projectPath, typePath } from '../paths';

type BatchRequest = paths['/api/projects/{projectId}/types/{typeId}/batch-rls']['post']['requestBody']['content']['application/json'];
type BatchAnswer = paths['/api/projects/{projectId}/types/{typeId}/batch-rls']['post']['responses'][200]['content']['application/json'];
type Action = BatchRequest['action'];

/** The API's batch actions, as a person reads them. */
const actions: Array<{ value: Action; label: string; needs: 'permission' | 'userId' | 'nothing' }> = [
  { value: 'setPermission', label: 'Set a permission', needs: 'permission' },
  { value: 'removePermission', label: 'Remove a permission', needs: 'permission' },
  { value: 'addUserId', label: 'Add a user', needs: 'userId' },
  { value: 'removeUserId', label: 'Remove a user', needs: 'userId' },
  { value: 'resetToDefault', label: "Reset to the type's default access", needs: 'nothing' },
];

const FIELDS = ['action', 'operations', 'permission', 'userId', 'filter', 'includeDeleted'] as const;

/** The request the form describes; fields the chosen action does not take are left out. */
function requestOf(form: FormData): BatchRequest {
  const action = String(form.get('action')) as Action;
  const needs = actions.find((entry) => entry.value === action)?.needs;
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const rlsOperation = text('rlsOperation') as Operation | '';
  const filter = {
    ...(rlsOperation ? { rlsOperation } : {}),
    ...(text('rlsPermission') ? { rlsPermission: text('rlsPermission') } : {}),
    ...(text('rlsUserId') ? { rlsUserId: text('rlsUserId') } : {}),
  };
  return {
    action,
    ...(action === 'resetToDefault' ? {} : { operations: operations.filter((operation) => form.get(`operation-${operation}`) === 'on') }),
    // Left out when empty, so the server says the action requires it.
    ...(needs === 'permission' && text('permission') ? { permission: text('permission') } : {}),
    ...(needs === 'userId' && text('userId') ? { userId: text('userId') } : {}),
    ...(Object.keys(filter).length ? { filter } : {}),
    ...(form.get('includeDeleted') === 'on' ? { includeDeleted: true } : {}),
  };
}

function RuleCell({ projectId, rule }: { projectId: string; rule: { permission?: string; userIds?: string[] } | undefined }) {
  const parts = [rule?.permission && `permission ${plainPermission(projectId, rule.permission)}`, rule?.userIds?.length && `users ${rule.userIds.join(', ')}`].filter(Boolean);
  return <td>{parts.length ? parts.join('; ') : <span className="muted">all members</span>}</td>;
}

/** What a dry run found, or what applying did. */
function Outcome({ projectId, typeId, answer }: { projectId: string; typeId: string; answer: BatchAnswer }) {
  const sample = answer.sample ?? [];
  return (
    <section aria-label={answer.dryRun ? 'Dry run result' : 'Applied'} className="inline-form outcome">
      {answer.dryRun ? (
        <p role="status">
          <strong data-testid="matching-count">{answer.matchingCount}</strong> documents match
          {answer.deletedCount !== undefined && ` (${answer.deletedCount} deleted)`}. Nothing changed yet: Apply makes the change.
        </p>
      ) : (
        <p role="status">
          Applied: <strong data-testid="modified-count">{answer.modifiedCount ?? 0}</strong> of {answer.matchingCount} matching documents changed
          {(answer.modifiedCount ?? 0) < answer.matchingCount && ' (the others already were as asked)'}.
        </p>
      )}
      {answer.dryRun && sample.length > 0 && (
        <table aria-label="Affected documents (sample)">
          <caption>
            {sample.length < answer.matchingCount ? `A sample of ${sample.length} of them (those you may read), with their access now` : 'With their access now'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Read</th>
              <th scope="col">Update</th>
              <th scope="col">Delete</th>
            </tr>
          </thead>
          <tbody>
            {sample.map((entity) => (
              <tr key={entity.id}>
                <th scope="row">
                  <Link to={documentPath(projectId, typeId, entity.id)}>{entity.id}</Link>
                  {entity.deletedAt !== undefined && <small className="muted"> deleted</small>}
                </th>
                <RuleCell projectId={projectId} rule={entity.access?.read} />
                <RuleCell projectId={projectId} rule={entity.access?.update} />
                <RuleCell projectId={projectId} rule={entity.access?.delete} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Batch RLS for one type (`POST .../batch-rls`): every action the API has, with its filter.
 * Dry run shows how many documents match and a sample of them; Apply changes them. Both need
 * the project's update permission; a refusal shows as the server words it.
 */
export function TypeAccess({ projectId, typeId }: { projectId: string; typeId: string }) {
  const [action, setAction] = useState<Action>('setPermission');
  const [answer, setAnswer] = useState<BatchAnswer>();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [running, setRunning] = useState(false);
  const needs = actions.find((entry) => entry.value === action)!.needs;

  const run = async (form: HTMLFormElement, dryRun: boolean) => {
    setRunning(true);
    try {
      const body = { ...requestOf(new FormData(form)), dryRun };
      setAnswer(await unwrap(api.POST('/api/projects/{projectId}/types/{typeId}/batch-rls', { params: { path: { projectId, typeId } }, body })));
      setErrors(noErrors);
    } catch (error) {
      setAnswer(undefined);
      setErrors(formErrors(error, FIELDS));
    } finally {
      setRunning(false);
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const dryRun = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') !== 'apply';
    void run(event.currentTarget, dryRun);
  };

  return (
    <main className="wide">
      <p className="crumbs">
        <Link to={projectPath(projectId)}>Types</Link> / <Link to={typePath(projectId, typeId)}>{typeId}</Link> / access
      </p>
      <h1>Access of {typeId} documents</h1>
      <p className="muted">Changes the row-level security of many documents at once. Dry run first to see what would change; Apply makes the change (each document gets a new revision).</p>
      {/* A changed form no longer matches the last dry run, so its result goes. */}
      <form onSubmit={submit} onChange={() => setAnswer(undefined)} className="inline-form batch-form" noValidate aria-label="Batch access change">
        <div className="field">
          <label htmlFor="batch-action">Action</label>
          <select id="batch-action" name="action" value={action} onChange={(event) => setAction(event.target.value as Action)}>
            {actions.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
          {errors.fields.action && <span className="field-error" role="alert">{errors.fields.action}</span>}
        </div>
        {action !== 'resetToDefault' && (
          <fieldset>
            <legend>Operations</legend>
            {operations.map((operation) => (
              <label key={operation}>
                <input type="checkbox" name={`operation-${operation}`} defaultChecked={operation === 'read'} /> {operation}
              </label>
            ))}
            {errors.fields.operations && <span className="field-error" role="alert">{errors.fields.operations}</span>}
          </fieldset>
        )}
        {needs === 'permission' && <Field label="Permission" name="permission" placeholder="editors" error={errors.fields.permission} />}
        {needs === 'userId' && <Field label="User id" name="userId" error={errors.fields.userId} />}
        <fieldset>
          <legend>Only documents (optional)</legend>
          <div className="field">
            <label htmlFor="batch-rls-operation">Whose rule for</label>
            <select id="batch-rls-operation" name="rlsOperation" defaultValue="">
              <option value="">any operation</option>
              {operations.map((operation) => (
                <option key={operation} value={operation}>
                  {operation}
                </option>
              ))}
            </select>
          </div>
          <Field label="Names the permission" name="rlsPermission" />
          <Field label="Lists the user" name="rlsUserId" />
          {errors.fields.filter && <span className="field-error" role="alert">{errors.fields.filter}</span>}
        </fieldset>
        <label>
          <input type="checkbox" name="includeDeleted" /> Include deleted documents
        </label>
        {errors.fields.includeDeleted && <span className="field-error" role="alert">{errors.fields.includeDeleted}</span>}
        {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
        <div className="actions">
          <button type="submit" value="dry-run" disabled={running}>Dry run</button>
          <button type="submit" value="apply" className="danger" disabled={running}>Apply</button>
        </div>
      </form>
      {answer && <Outcome projectId={projectId} typeId={typeId} answer={answer} />}
    </main>
  );
}

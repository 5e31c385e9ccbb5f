import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { accessModifier, operations, type Access, type Operation, type Rule } from '../access/access-modifier';
import { listOf, plainPermission } from '../access/permission-names';
import { Field } from './field';
import { formErrors, noErrors, type FormErrors } from './form-errors';


const capitalized = (operation: Operation) => operation[0]!.toUpperCase() + operation.slice(1);

/** The rule a row of the form describes; undefined when it names nobody (the operation is then open to every member). */
function ruleOf(form: FormData, operation: Operation): Rule | undefined {
  const permission = String(form.get(`${operation}.permission`) ?? '').trim();
  const userIds = listOf(String(form.get(`${operation}.userIds`) ?? ''));
  if (!permission && userIds.length === 0) return undefined;
  return { ...(permission ? { permission } : {}), ...(userIds.length ? { userIds } : {}) };
}

/** The operation whose rule a 400 names (`details.problems[].path` such as `modifier.$set.access.read`), if any. */
function refusedOperation(error: unknown): Operation | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const problems = (error.details?.problems ?? []) as Array<{ path?: unknown }>;
  const paths = [error.field, ...(Array.isArray(problems) ? problems.map((problem) => problem.path) : [])].filter((path): path is string => typeof path === 'string');
  return operations.find((operation) => paths.some((path) => path.includes(`access.${operation}`)));
}

/**
 * Edits a document's row-level security: for read, update and delete a permission and the users
 * allowed, written as one PATCH of `access` on the document's current revision. Changing access
 * needs the project's update permission; the server's refusal shows here.
 */
export function AccessEditor(props: { projectId: string; typeId: string; id: string; access: unknown; revision: number; onSaved: () => Promise<void> }) {
  const current = (props.access ?? {}) as Access;
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [notice, setNotice] = useState<string>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Access = {};
    for (const operation of operations) {
      const rule = ruleOf(form, operation);
      if (rule) next[operation] = rule;
    }
    const modifier = accessModifier(props.projectId, current, next);
    if (!modifier) {
      setNotice('Access unchanged');
      return;
    }
    try {
      const path = { projectId: props.projectId, typeId: props.typeId, id: props.id };
      await unwrap(api.PATCH('/api/projects/{projectId}/types/{typeId}/data/{id}', { params: { path }, body: { modifier, baseRevision: props.revision } }));
      await props.onSaved();
      setErrors(noErrors);
      setNotice('Access updated');
      setOpen(false);
    } catch (error) {
      const operation = refusedOperation(error);
      setErrors(operation ? { fields: { [operation]: (error as ApiError).message } } : formErrors(error, []));
    }
  };

  return (
    <section aria-label="Access rules" className="access-editor">
      {notice && <p role="status">{notice}</p>}
      {!open ? (
        <button type="button" onClick={() => setOpen(true)}>Edit access</button>
      ) : (
        <form onSubmit={submit} noValidate key={props.revision}>
          <p className="muted">An operation that names no permission and no user is open to every project member. Users are user ids, separated by commas.</p>
          <div className="access-grid">
            {operations.map((operation) => (
              <fieldset key={operation}>
                <legend>{capitalized(operation)}</legend>
                <Field label={`${capitalized(operation)} permission`} name={`${operation}.permission`} defaultValue={current[operation]?.permission ? plainPermission(props.projectId, current[operation].permission) : ''} />
                <Field label={`${capitalized(operation)} users`} name={`${operation}.userIds`} defaultValue={(current[operation]?.userIds ?? []).join(', ')} />
                {errors.fields[operation] && <p role="alert" className="field-error">{errors.fields[operation]}</p>}
              </fieldset>
            ))}
          </div>
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit">Update access</button>
          <button type="button" className="danger" onClick={() => setOpen(false)}>Cancel</button>
        </form>
      )}
    </section>
  );
}

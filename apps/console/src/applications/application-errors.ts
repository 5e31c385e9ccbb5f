import { ApiError } from '../api/client';
import type { FormErrors } from '../components/form-errors';
import type { FieldProblem } from './application-rules';

const FIELDS = ['title', 'routes'] as const;

/** The path a 400 names: `details.field`, a validation issue's field, or the first problem's path or field. */
function namedPath(error: ApiError): string | undefined {
  const problems = (error.details as { problems?: Array<{ path?: unknown; field?: unknown }> } | undefined)?.problems;
  const first = problems?.[0];
  const fromProblem = typeof first?.path === 'string' ? first.path : typeof first?.field === 'string' ? first.field : undefined;
  return error.field ?? fromProblem;
}

/**
 * A refused save beside the field it concerns: the server names `modifier.$set.routes…`,
 * `body.title`, or (for a CheckIn binding it refuses) the widget; anything else is the form's.
 */
export function applicationErrors(error: unknown): FormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, form: error instanceof Error ? error.message : String(error) };
  if (typeof (error.details as { widgetId?: unknown } | undefined)?.widgetId === 'string') return { fields: { routes: error.message } };
  const field = namedPath(error)?.replace(/^(body\.|modifier\.)?(\$set\.)?/, '').split('.')[0];
  const known = FIELDS.find((name) => name === field);
  return known ? { fields: { [known]: error.message } } : { fields: {}, form: error.message };
}

/** The console's own check, one message per field listing each problem with its path. */
export function problemErrors(problems: FieldProblem[]): FormErrors {
  const fields: Record<string, string> = {};
  for (const problem of problems) fields[problem.field] = [fields[problem.field], `${problem.path}: ${problem.message}`].filter(Boolean).join('; ');
  return { fields };
}

import { accessSchema } from '@platform/contracts';

export type AccessRuleProblem = { field: string; message: string };

/**
 * Checks the access configurations a write stores. A rule is strict: an unknown key (`users` for
 * `userIds`) or operation (`reed`) would be stored as no rule at all, which opens the operation to
 * every member, so it is refused. `fieldNames` are the access fields to check (those the write
 * changes: access configurations stored earlier stay readable as they are).
 */
export function accessRuleProblems(fields: Record<string, unknown>, fieldNames: readonly string[]): AccessRuleProblem[] {
  const problems: AccessRuleProblem[] = [];
  for (const name of fieldNames) {
    if (fields[name] === undefined) continue;
    const result = accessSchema.safeParse(fields[name]);
    if (!result.success) problems.push(...result.error.issues.map((issue) => ({ field: [name, ...issue.path].join('.'), message: issue.message })));
  }
  return problems;
}

import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { valueAtPath } from './templates';

export const conditionOperators = ['truthy', 'falsy', 'exists', 'notExists', 'equals', 'notEquals', 'greaterThan', 'lessThan', 'contains'] as const;

export const conditionSchema = z.strictObject({
  /** Dotted path into the tested value; absent tests the value itself. */
  path: z.string().min(1).max(200).optional(),
  operator: z.enum(conditionOperators).default('truthy'),
  /** What `equals`, `notEquals`, `greaterThan`, `lessThan` and `contains` compare with. */
  value: z.unknown().optional(),
});
export type Condition = z.infer<typeof conditionSchema>;

/** Evaluates a condition against a value; comparisons of different types are false, never errors. */
export function evaluateCondition(condition: Condition, subject: unknown): boolean {
  const actual = condition.path ? valueAtPath(subject, condition.path) : subject;
  const expected = condition.value;
  switch (condition.operator) {
    case 'truthy':
      return Boolean(actual);
    case 'falsy':
      return !actual;
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'notExists':
      return actual === undefined || actual === null;
    case 'equals':
      return isDeepStrictEqual(actual, expected);
    case 'notEquals':
      return !isDeepStrictEqual(actual, expected);
    case 'greaterThan':
      return comparable(actual, expected) && (actual as number) > (expected as number);
    case 'lessThan':
      return comparable(actual, expected) && (actual as number) < (expected as number);
    case 'contains':
      if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
      return Array.isArray(actual) && actual.some((item) => isDeepStrictEqual(item, expected));
  }
}

function comparable(a: unknown, b: unknown): boolean {
  return (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
}

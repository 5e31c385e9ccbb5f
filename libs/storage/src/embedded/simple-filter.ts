import type { Filter } from '../port';
import { isPlain, type Plain } from './plain';

/** A compiled filter: whether one stored document matches it. */
export interface DocumentTest {
  test(document: Record<string, unknown>): boolean;
}

/** One operator's test of a field's value (undefined when the document lacks the field). */
type Condition = (held: unknown) => boolean;

interface FieldCheck {
  read: (document: Record<string, unknown>) => unknown;
  condition: Condition;
}

/** The order of two values of one type as mingo ranks them (where a NaN compares equal to anything). */
function order(a: Plain, b: Plain): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The field is the value, or an array holding it (0 and -0 are equal). */
function equals(value: Plain): Condition {
  return (held) => held === value || (Array.isArray(held) && held.includes(value));
}

/** The field is one of the values, or an array holding one. */
function among(values: ReadonlySet<unknown>): Condition {
  return (held) => (Array.isArray(held) ? held.some((element) => values.has(element)) : values.has(held));
}

/**
 * The field, or any one element of an array field, has the value's type and an order it accepts:
 * numbers compare only with numbers, strings with strings, booleans with booleans, so a missing or
 * null field never matches.
 */
function ordered(value: Plain, accepts: (order: number) => boolean): Condition {
  const type = typeof value;
  return (held) => (Array.isArray(held) ? held.some((element) => orderedOne(element, type, value, accepts)) : orderedOne(held, type, value, accepts));
}

function orderedOne(element: unknown, type: string, value: Plain, accepts: (order: number) => boolean): boolean {
  return typeof element === type && accepts(order(element as Plain, value));
}

function not(condition: Condition): Condition {
  return (held) => !condition(held);
}

/** An operator taking one plain value. */
function onPlain(build: (value: Plain) => Condition): (operand: unknown) => Condition | undefined {
  return (operand) => (isPlain(operand) ? build(operand) : undefined);
}

/** An operator taking a list of plain values (a hole in it counts as undefined, which is not plain). */
function onPlainList(build: (values: ReadonlySet<unknown>) => Condition): (operand: unknown) => Condition | undefined {
  return (operand) => (Array.isArray(operand) && [...operand].every(isPlain) ? build(new Set(operand)) : undefined);
}

/** Each operator's condition for an operand, or undefined for an operand it leaves to the query engine. */
const OPERATORS = new Map<string, (operand: unknown) => Condition | undefined>([
  ['$eq', onPlain(equals)],
  ['$ne', onPlain((value) => not(equals(value)))],
  ['$gt', onPlain((value) => ordered(value, (sign) => sign > 0))],
  ['$gte', onPlain((value) => ordered(value, (sign) => sign >= 0))],
  ['$lt', onPlain((value) => ordered(value, (sign) => sign < 0))],
  ['$lte', onPlain((value) => ordered(value, (sign) => sign <= 0))],
  ['$in', onPlainList(among)],
  ['$nin', onPlainList((values) => not(among(values)))],
  // A field set to null is present; one set to undefined is not (JSON documents never hold it).
  ['$exists', (operand) => (typeof operand === 'boolean' ? (held) => (held !== undefined) === operand : undefined)],
]);

/** Only object literals are compiled; any other object (a Date, a class instance) goes to the query engine, which has its own reading of it. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** All of a field's operators must hold; a plain value is an equality. */
function fieldCondition(spec: unknown): Condition | undefined {
  if (isPlain(spec)) return equals(spec);
  if (!isRecord(spec)) return undefined;
  const conditions: Condition[] = [];
  for (const [operator, operand] of Object.entries(spec)) {
    const condition = OPERATORS.get(operator)?.(operand);
    if (!condition) return undefined;
    conditions.push(condition);
  }
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0] : (held) => conditions.every((condition) => condition(held));
}

/** Like mingo, a name Object.prototype has (toString, constructor) is read only as the document's own field. */
function reader(field: string): FieldCheck['read'] {
  return field in Object.prototype ? (document) => (Object.hasOwn(document, field) ? document[field] : undefined) : (document) => document[field];
}

/** The checks that must all hold, with a top-level `$and`'s clauses flattened in. */
function fieldChecks(filter: unknown): FieldCheck[] | undefined {
  if (!isRecord(filter)) return undefined;
  const entries = Object.entries(filter);
  // An empty filter or `$and` clause is left to the query engine (MongoDB refuses an empty `$and`).
  if (entries.length === 0) return undefined;
  const checks: FieldCheck[] = [];
  for (const [field, spec] of entries) {
    if (field === '$and') {
      if (!Array.isArray(spec) || spec.length === 0) return undefined;
      for (const clause of spec) {
        const clauseChecks = fieldChecks(clause);
        if (!clauseChecks) return undefined;
        checks.push(...clauseChecks);
      }
      continue;
    }
    // mingo refuses a `__proto__` selector outright.
    if (field.startsWith('$') || field.includes('.') || field === '__proto__') return undefined;
    const condition = fieldCondition(spec);
    if (!condition) return undefined;
    checks.push({ read: reader(field), condition });
  }
  return checks;
}

/**
 * A filter of top-level fields, each a plain value or `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`,
 * `$in`, `$nin` and `$exists` on plain operands (and a `$and` of such clauses), tested without
 * compiling a query: the query engine builds its operator tables anew for every query, which cost
 * hot reads and guarded writes more than the rest of their match. The meaning is mingo's (MongoDB's
 * for these shapes). Any other filter answers undefined and goes to the query engine.
 */
export function simpleFilter(filter: Filter): DocumentTest | undefined {
  const checks = fieldChecks(filter);
  return checks && new AllChecks(checks);
}

/**
 * A class rather than an object literal with an arrow: a filter is compiled for every read, and
 * tsx (keepNames) gives a named closure made per call an Object.defineProperty each time.
 */
class AllChecks implements DocumentTest {
  constructor(private readonly checks: FieldCheck[]) {}

  test(document: Record<string, unknown>): boolean {
    return this.checks.every(({ read, condition }) => condition(read(document)));
  }
}

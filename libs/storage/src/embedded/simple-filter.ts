import type { Filter } from '../port';
import { isPlain, type Plain } from './plain';
import { engineTest, type DocumentTest } from './query-engine';

/** One operator's test of a field's value (undefined when the document lacks the field). */
type Condition = (held: unknown) => boolean;

/**
 * A dotted path crossed an array before its last name: MongoDB then reads the name in each
 * element (or as an index), which only the query engine does, so the document goes to it.
 */
const UNDECIDED = Symbol('undecided');

type Verdict = boolean | typeof UNDECIDED;

/** A field's value as a filter reads it; UNDECIDED where an array lies on a dotted path. */
type FieldReader = (document: Record<string, unknown>) => unknown;

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
function topLevelReader(field: string): FieldReader {
  return field in Object.prototype ? (document) => (Object.hasOwn(document, field) ? document[field] : undefined) : (document) => document[field];
}

/**
 * A dotted path read through nested objects, each name an own field: a scalar or null on the way
 * means the field is missing (as in MongoDB), an array on the way leaves the document UNDECIDED,
 * and so does an array of arrays at the end (mingo flattens it there, not at the top level).
 */
function pathReader(names: readonly string[]): FieldReader {
  return (document) => {
    let value: unknown = document;
    for (const name of names) {
      if (typeof value !== 'object' || value === null) return undefined;
      if (Array.isArray(value)) return UNDECIDED;
      value = Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
    }
    return Array.isArray(value) && value.some(Array.isArray) ? UNDECIDED : value;
  };
}

/** A field name the compiled test reads itself; operators, positional names and empty names are the engine's (mingo refuses `__proto__`). */
function fieldReader(field: string): FieldReader | undefined {
  const names = field.split('.');
  if (names.some((name) => name === '' || name.startsWith('$') || name === '__proto__')) return undefined;
  return names.length === 1 ? topLevelReader(field) : pathReader(names);
}

interface Check {
  verdict(document: Record<string, unknown>): Verdict;
}

/** One field's condition. */
class FieldCheck implements Check {
  constructor(
    private readonly read: FieldReader,
    private readonly condition: Condition,
  ) {}

  verdict(document: Record<string, unknown>): Verdict {
    const held = this.read(document);
    return held === UNDECIDED ? UNDECIDED : this.condition(held);
  }
}

/**
 * All of the checks (`decidedBy` false: one that fails decides) or any of them (`decidedBy` true:
 * one that holds decides). A deciding verdict wins whatever the undecided ones would say; without
 * one, an undecided check leaves the whole undecided.
 */
class Junction implements Check {
  constructor(
    private readonly checks: readonly Check[],
    private readonly decidedBy: boolean,
  ) {}

  verdict(document: Record<string, unknown>): Verdict {
    let verdict: Verdict = !this.decidedBy;
    for (const check of this.checks) {
      const one = check.verdict(document);
      if (one === this.decidedBy) return one;
      if (one === UNDECIDED) verdict = UNDECIDED;
    }
    return verdict;
  }
}

/** The clauses of a `$and` or `$or`: a non-empty list of compiled filters (MongoDB refuses an empty one). */
function clauseChecks(spec: unknown): Check[] | undefined {
  if (!Array.isArray(spec) || spec.length === 0) return undefined;
  const checks: Check[] = [];
  for (const clause of spec) {
    const check = filterCheck(clause);
    if (!check) return undefined;
    checks.push(check);
  }
  return checks;
}

/** The check of one filter document: each of its entries must hold. */
function filterCheck(filter: unknown): Check | undefined {
  if (!isRecord(filter)) return undefined;
  const entries = Object.entries(filter);
  // An empty filter or clause is left to the query engine (MongoDB refuses an empty `$and`).
  if (entries.length === 0) return undefined;
  const checks: Check[] = [];
  for (const [field, spec] of entries) {
    if (field === '$and' || field === '$or') {
      const clauses = clauseChecks(spec);
      if (!clauses) return undefined;
      if (field === '$and') checks.push(...clauses);
      else checks.push(clauses.length === 1 ? clauses[0]! : new Junction(clauses, true));
      continue;
    }
    const read = fieldReader(field);
    const condition = read && fieldCondition(spec);
    if (!read || !condition) return undefined;
    checks.push(new FieldCheck(read, condition));
  }
  return checks.length === 1 ? checks[0] : new Junction(checks, false);
}

/**
 * A filter of fields (dotted paths through nested objects included), each a plain value or `$eq`,
 * `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$nin` and `$exists` on plain operands, and of `$and`
 * and `$or` of such clauses, tested without compiling a query: the query engine builds its
 * operator tables anew for every query and interprets every document (4 µs a document for the
 * read rule's filter, against a few tenths here), which cost hot reads, guarded writes and the
 * counts of large pages most of their time. The meaning is mingo's (MongoDB's for these shapes); a
 * document with an array on a dotted path is passed to the engine. Any other filter answers
 * undefined and goes to the engine whole.
 */
export function simpleFilter(filter: Filter): DocumentTest | undefined {
  const check = filterCheck(filter);
  return check && new CompiledTest(check, filter);
}

/**
 * A class rather than an object literal with an arrow: a filter is compiled for every read, and
 * tsx (keepNames) gives a named closure made per call an Object.defineProperty each time.
 */
class CompiledTest implements DocumentTest {
  private engine: DocumentTest | undefined;

  constructor(
    private readonly check: Check,
    private readonly filter: Filter,
  ) {}

  test(document: Record<string, unknown>): boolean {
    const verdict = this.check.verdict(document);
    if (verdict !== UNDECIDED) return verdict;
    this.engine ??= engineTest(this.filter);
    return this.engine.test(document);
  }
}

import { _, Name, type CodeKeywordDefinition, type KeywordCxt } from 'ajv/dist/2020.js';
import type { JsonSchemaNode } from './type-schema';

/** Validation took longer than its budget; thrown, so a write stops rather than waiting longer. */
export class ValidationBudgetExceededError extends Error {
  constructor(
    readonly budgetMs: number,
    /** The field being checked when the budget ran out. */
    readonly field: string,
  ) {
    super(`validating the document took longer than ${budgetMs} ms (at ${field})`);
    this.name = 'ValidationBudgetExceededError';
  }
}

export interface ValidationOptions {
  /** Refuse (throw ValidationBudgetExceededError) once validation has used this much CPU time; no limit when absent. */
  budgetMs?: number;
  /** The process's CPU time in milliseconds; a test passes its own clock. */
  cpuMs?: () => number;
  /** Steps of pattern work the document's checks may take (see pattern-work.ts); DEFAULT_PATTERN_WORK_LIMIT when absent. */
  patternWorkLimit?: number;
}

/** The clock is read once per this many values: reading it costs a system call. */
const VALUES_PER_BUDGET_CHECK = 32;

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

/** `/address/tags/0` (a JSON pointer) as the field path errors name: `address.tags.0`. */
export function fieldOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/**
 * The budget of the validation running now. Validation is synchronous, so one process-wide slot
 * is enough. The budget counts CPU time, not wall time: a descheduled process has not spent that
 * time validating.
 */
class Budget {
  private values = 0;
  private readonly startedAt: number;

  constructor(
    private readonly budgetMs: number,
    private readonly cpuMs: () => number,
  ) {
    this.startedAt = cpuMs();
  }

  /** Counts one value; true when this one is due a look at the clock. */
  spend(): boolean {
    this.values += 1;
    return this.values % VALUES_PER_BUDGET_CHECK === 0;
  }

  check(instancePath: string): void {
    if (this.cpuMs() - this.startedAt > this.budgetMs) throw new ValidationBudgetExceededError(this.budgetMs, fieldOf(instancePath));
  }
}

let running: Budget | undefined;

const spendRunning = (): boolean => running !== undefined && running.spend();
const checkRunning = (instancePath: string): void => running?.check(instancePath);

const BUDGET_KEYWORD = 'validationBudget';

/** The generated validator's variable holding the path of the value it checks (Ajv's `names.instancePath`). */
const INSTANCE_PATH = new Name('instancePath');

/**
 * The keyword every compiled node carries, generated inline into the validator: a counter bump per
 * value, and only every VALUES_PER_BUDGET_CHECK values the path and a clock reading. Called as a
 * function keyword, Ajv would build a context object per node, which cost more than the rest of
 * the validation of a 20-field document.
 */
export const validationBudgetKeyword: CodeKeywordDefinition = {
  keyword: BUDGET_KEYWORD,
  schemaType: 'boolean',
  code(cxt: KeywordCxt) {
    const { gen, it } = cxt;
    const spend = gen.scopeValue('keyword', { ref: spendRunning });
    const check = gen.scopeValue('keyword', { ref: checkRunning });
    gen.if(_`${spend}()`, () => gen.code(_`${check}(${INSTANCE_PATH} + ${it.errorPath})`));
  },
};

/** The schema as compiled: every node also spends from the running budget, so a long validation stops where it got to. */
export function withBudgetChecks(node: JsonSchemaNode): JsonSchemaNode {
  const each = (record: Record<string, JsonSchemaNode> | undefined) => record && Object.fromEntries(Object.entries(record).map(([name, inner]) => [name, withBudgetChecks(inner)]));
  const either = (inner: JsonSchemaNode | boolean | undefined) => (typeof inner === 'object' ? withBudgetChecks(inner) : inner);
  const checked: JsonSchemaNode & Record<string, unknown> = { ...node, [BUDGET_KEYWORD]: true };
  if (node.properties) checked.properties = each(node.properties);
  if (node.$defs) checked.$defs = each(node.$defs);
  if (node.items !== undefined) checked.items = either(node.items);
  if (node.additionalProperties !== undefined) checked.additionalProperties = either(node.additionalProperties);
  return checked;
}

/** Runs a validation with the options' budget (none when absent) as the running one. */
export function withinBudget<T>(options: ValidationOptions, validate: () => T): T {
  running = options.budgetMs === undefined ? undefined : new Budget(options.budgetMs, options.cpuMs ?? processCpuMs);
  try {
    return validate();
  } finally {
    running = undefined;
  }
}

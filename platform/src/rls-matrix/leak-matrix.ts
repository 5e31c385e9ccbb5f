import { mayAdministerRls, mayRead, mayReadType, type AccessRuleCase, type UserRole } from './access-oracle';
import { entityId, kindsOnPath, readPaths, type ReadPath, type Revealed, type RuleEntities } from './read-paths';

export type Verdict = 'visible' | 'hidden' | 'leak' | 'missing';

export interface MatrixRow {
  role: UserRole;
  rule: AccessRuleCase;
  cells: Record<ReadPath, { verdict: Verdict; detail: string }>;
}

/** The paths that show the type itself, not its documents. */
const typePaths: ReadonlySet<ReadPath> = new Set(['type schema', 'type list', 'type record']);

/**
 * What a path must show: the oracle's answer, except that batch RLS answers only RLS
 * administrators at all, and the type paths show the type, not its documents.
 */
function expectedOnPath(role: UserRole, rule: AccessRuleCase, path: ReadPath): boolean {
  if (typePaths.has(path)) return mayReadType(role, rule);
  return mayRead(role, rule) && (path !== 'batch-rls dry run' || mayAdministerRls(role));
}

/** Compares what each path revealed with what the oracle expects, entity kind by entity kind. */
export function judge(role: UserRole, rule: AccessRuleCase, entities: RuleEntities, revealed: Revealed): MatrixRow {
  const cells = Object.fromEntries(
    readPaths.map((path) => {
      const expected = expectedOnPath(role, rule, path);
      const wrong = kindsOnPath[path].filter((kind) => revealed[path].has(entityId(entities, kind)) !== expected);
      const verdict: Verdict = wrong.length === 0 ? (expected ? 'visible' : 'hidden') : expected ? 'missing' : 'leak';
      return [path, { verdict, detail: wrong.join('+') }];
    }),
  ) as MatrixRow['cells'];
  return { role, rule, cells };
}

const symbols: Record<Verdict, string> = { visible: '✓', hidden: '·', leak: '✗ LEAK', missing: '✗ MISSING' };

/** The matrix as a markdown table: rows user × rule, columns read paths. */
export function formatMatrix(rows: MatrixRow[]): string {
  const header = ['user', 'rule', ...readPaths];
  const lines = rows.map((row) => [
    row.role,
    row.rule.label,
    ...readPaths.map((path) => {
      const cell = row.cells[path];
      return cell.detail ? `${symbols[cell.verdict]} (${cell.detail})` : symbols[cell.verdict];
    }),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] as string).length)));
  const render = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  return [render(header), render(widths.map((width) => '-'.repeat(width))), ...lines.map(render)].join('\n');
}

/** Every cell that is wrong, named so a failure says where. */
export function problemsIn(rows: MatrixRow[]): string[] {
  return rows.flatMap((row) =>
    readPaths
      .filter((path) => row.cells[path].verdict === 'leak' || row.cells[path].verdict === 'missing')
      .map((path) => `${row.role} × ${row.rule.label} × ${path}: ${row.cells[path].verdict} (${row.cells[path].detail})`),
  );
}

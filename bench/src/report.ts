import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './load';
import { repositoryRoot } from './processes';
import { withSection } from './report-section';
import { runConditionsText } from './run-conditions';

const file = join(repositoryRoot, 'BENCHMARKS.md');

export function machineLine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB memory, Node ${process.version}`;
}

const header = `# Benchmarks

Written by \`pnpm bench\` (all suites) or \`pnpm bench <suite>\` (one suite; the others keep their
last figures). Each figure is the median of 3 interleaved autocannon runs of 5 s after a 1 s
warm-up, with the load generator in its own process. Ratios compare targets measured in the same
run, which is what stays meaningful on a shared 2-core machine; absolute numbers vary by machine.
Under each section: the 1-min load average during its run and the server that stood in for
MongoDB in its microservice runs (docs/quality.md, "Benchmarks").
`;

/** Replaces (or appends) one suite's section, between markers, leaving the other suites' figures and the section's dated notes. */
export async function writeSection(suite: string, markdown: string): Promise<void> {
  let current = header;
  try {
    current = await readFile(file, 'utf8');
  } catch {
    // first run writes the header
  }
  const figures = `${markdown.trim()}\n\nMeasured ${new Date().toISOString().slice(0, 10)} on ${machineLine()}; ${runConditionsText()}.`;
  const next = withSection(current, suite, figures);
  await writeFile(file, next.endsWith('\n') ? next : `${next}\n`);
}

export function formatRow(cells: Array<string | number>): string {
  return `| ${cells.map((cell) => (typeof cell === 'number' ? cell.toLocaleString('en-US', { maximumFractionDigits: 2 }) : cell)).join(' | ')} |`;
}

/** One load target's row: shape, target, req/s (a decimal below 10), p50, p99, non-2xx + errors. */
export function loadRow(shape: string, target: string, result: LoadResult): string {
  const perSecond = result.requestsPerSecond < 10 ? Math.round(result.requestsPerSecond * 10) / 10 : Math.round(result.requestsPerSecond);
  return formatRow([shape, target, perSecond, result.p50Ms, result.p99Ms, result.non2xx + result.errors]);
}

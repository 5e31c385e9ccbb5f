import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { pairedRatio, runLoad } from './load';
import { imageOfWorkingTree } from './image-build';
import { repositoryRoot, startPlatformProcess, type PlatformProcess } from './processes';
import { median } from './stats';
import { patchLoad } from './suites/data-documents';

const run = promisify(execFile);

/** The CPU time (user + system, ms) the process has used, from /proc. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10;
}

/** The process's CPU time once it has stopped working off what a round left (its consumers), at most 4 s later. */
async function cpuWhenIdle(pid: number): Promise<number> {
  let last = await cpuMs(pid);
  for (let check = 0; check < 10; check += 1) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    const now = await cpuMs(pid);
    if (now - last <= 8) return now;
    last = now;
  }
  return last;
}

/** The bundle the image runs (`node scripts/bundle.mjs`) of `commit` (or of the working tree), in an image-like directory. */
async function bundleOf(commit: string | undefined, scratch: string): Promise<string> {
  let tree = repositoryRoot;
  if (commit) {
    tree = join(scratch, 'tree');
    await run('git', ['worktree', 'add', '--detach', tree, commit], { cwd: repositoryRoot });
    // The console is not needed to serve the API: no postinstall build.
    await run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts', '--reporter=silent'], { cwd: tree, timeout: 300_000 });
  }
  return imageOfWorkingTree(tree);
}

interface Side {
  name: string;
  platform: PlatformProcess;
  perSecond: number[];
  cpuUsPerRequest: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '14' }, seconds: { type: 'string', default: '2' } },
});
const [baseCommit] = positionals;
if (!baseCommit) {
  console.error('usage: pnpm bench:compare <commit> [--rounds 14] [--seconds 2]');
  process.exit(2);
}
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);

/**
 * `pnpm bench:compare <commit>`: the all-in-one PATCH load of data-documents against the bundle
 * of `<commit>` and the bundle of the working tree, side by side, in rounds of a few seconds that
 * alternate between the two (each first in every other round), and the median of the per-round ratios. On a host whose speed drifts
 * (docs/quality.md, "Benchmarks") a change of a few percent shows only this way: both sides of a
 * pair run seconds apart. Each side is its own process on its own data directory; the
 * environment is the bench's (no OTEL_* variable: untraced).
 */
const scratch = await mkdtemp(join(tmpdir(), 'bench-compare-'));
const sides: Side[] = [];
try {
  const bundles = [
    { name: baseCommit, directory: await bundleOf(baseCommit, scratch) },
    { name: 'working tree', directory: await bundleOf(undefined, scratch) },
  ];
  for (const { name, directory } of bundles) {
    const platform = await startPlatformProcess({ NODE_ENV: 'production' }, { args: ['dist/platform.mjs'], cwd: directory });
    sides.push({ name, platform, perSecond: [], cpuUsPerRequest: [] });
  }
  const loads = await Promise.all(sides.map((side) => patchLoad(side.platform.url)));
  for (const load of loads) await runLoad({ ...load, durationSeconds: 1 });
  for (let round = 0; round < rounds; round += 1) {
    // Each side goes first in every other round, so neither always follows the other.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const side = sides[index]!;
      const pid = side.platform.child.pid as number;
      // The other side too: its consumers still working off its last round would share the CPU with this one's.
      for (const other of sides) if (other !== side) await cpuWhenIdle(other.platform.child.pid as number);
      const before = await cpuWhenIdle(pid);
      const result = await runLoad({ ...loads[index]!, durationSeconds: seconds });
      const requests = result.requestsPerSecond * seconds;
      side.perSecond.push(result.requestsPerSecond);
      side.cpuUsPerRequest.push(((await cpuWhenIdle(pid)) - before) * 1000 / requests);
    }
  }
  const [base, head] = sides as [Side, Side];
  for (const side of sides) {
    console.log(`${side.name}: PATCH ${Math.round(median(side.perSecond))} req/s, ${Math.round(median(side.cpuUsPerRequest))} µs of CPU per PATCH (medians of ${rounds} rounds)`);
  }
  console.log(`working tree / ${baseCommit}, median of the ${rounds} rounds' ratios: throughput ${pairedRatio(head.perSecond, base.perSecond).toFixed(3)}x, CPU per PATCH ${pairedRatio(head.cpuUsPerRequest, base.cpuUsPerRequest).toFixed(3)}x`);
} finally {
  await Promise.all(sides.map((side) => side.platform.stop()));
  await run('git', ['worktree', 'remove', '--force', join(scratch, 'tree')], { cwd: repositoryRoot }).catch(() => undefined);
  await rm(scratch, { recursive: true, force: true });
}
process.exit(0);

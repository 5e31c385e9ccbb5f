import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM_NODE_FLAGS } from './node-flags';
import { processEntry } from './testing/process-entry';
import { sourceCommand } from './compose/local-topology';

const repository = resolve(__dirname, '../..');
const read = (file: string) => readFileSync(resolve(repository, file), 'utf8');
/** A script that allocates short-lived objects for a while, then prints the new space's size. */
const NEW_SPACE_AFTER_BURST =
  "let keep = []; for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep = []; } process.stdout.write(String(require('v8').getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size))";

/** The arguments node gets before the entry point in a Dockerfile `CMD ["node", ...]`. */
function imageNodeArguments(dockerfile: string): string[] {
  const cmd = dockerfile.split('\n').filter((line) => line.startsWith('CMD ')).pop();
  const args = JSON.parse((cmd ?? 'CMD []').slice(4)) as string[];
  expect(args[0]).toBe('node');
  return args.slice(1, -1);
}

describe('every platform process runs with the platform node flags', () => {
  it('pnpm start passes them to node before the entry', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start!;
    const nodeArguments = start.replace(/^exec node /, '').split(' ');
    expect(nodeArguments.slice(0, PLATFORM_NODE_FLAGS.length)).toEqual([...PLATFORM_NODE_FLAGS]);
  });

  it("the image's CMD passes them to node", () => {
    expect(imageNodeArguments(read('Dockerfile'))).toEqual([...PLATFORM_NODE_FLAGS]);
  });

  it('the local topology and the tests start node with them', () => {
    for (const args of [sourceCommand.args, processEntry]) expect(args.slice(0, PLATFORM_NODE_FLAGS.length)).toEqual([...PLATFORM_NODE_FLAGS]);
  });

  it('a process started with them lets its young generation grow past what V8 allows by default', () => {
    // The new space grows with the allocation rate up to its maximum, which is what the flag sets.
    const newSpaceAfterBurst = (flags: readonly string[]) => Number(execFileSync(process.execPath, [...flags, '-e', NEW_SPACE_AFTER_BURST], { encoding: 'utf8' }));
    expect(newSpaceAfterBurst(PLATFORM_NODE_FLAGS)).toBeGreaterThan(newSpaceAfterBurst([]));
  });
});

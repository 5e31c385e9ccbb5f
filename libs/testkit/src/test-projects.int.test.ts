import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const BACKEND_LINE = '[testkit]';

/** Runs the workspace's vitest as a developer would, outside this run's worker environment. */
function vitest(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [resolve(root, 'node_modules/vitest/vitest.mjs'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the unit and integration test projects', () => {
  it('the global setup announces every backend with the line a unit run must not print', async () => {
    expect(await readFile(resolve(__dirname, 'global-setup.ts'), 'utf8')).toContain(`\`${BACKEND_LINE} `);
  });

  it('runs a unit file without starting any backend', () => {
    const { status, output } = vitest(['run', '--project', 'unit', 'libs/sync-client/src/records.test.ts']);
    expect(output).toMatch(/Test Files\s+1 passed/);
    expect(output).not.toContain(BACKEND_LINE);
    expect(status).toBe(0);
  });

  it('puts no test that uses the testkit into the unit project', async () => {
    const { status, output } = vitest(['list', '--project', 'unit', '--filesOnly']);
    expect(status).toBe(0);
    const files = output.split('\n').flatMap((line) => /^\[unit\] (\S+\.test\.ts)$/.exec(line.trim())?.slice(1) ?? []);
    expect(files).toContain('libs/sync-client/src/records.test.ts');
    const usingBackends: string[] = [];
    for (const file of files) {
      const source = await readFile(resolve(root, file), 'utf8');
      if (/@platform\/testkit|inject\(\s*'backends'\s*\)/.test(source)) usingBackends.push(file);
    }
    expect(usingBackends).toEqual([]);
  });

  it('runs every test file of the repository in `pnpm test`: *.int.test.ts and *.api.test.ts in integration, the rest in unit', () => {
    const { status, output } = vitest(['list', '--filesOnly']);
    expect(status).toBe(0);
    const projectOf = new Map(output.split('\n').flatMap((line) => {
      const listed = /^\[(unit|integration)\] (\S+\.test\.ts)$/.exec(line.trim());
      return listed ? [[listed[2]!, listed[1]!] as const] : [];
    }));
    const tracked = execFileSync('git', ['ls-files', '*.test.ts'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    expect(tracked).toContain('libs/testkit/src/test-projects.int.test.ts');
    const misplaced = tracked.filter((file) => projectOf.get(file) !== (/\.(int|api)\.test\.ts$/.test(file) ? 'integration' : 'unit'));
    expect(misplaced).toEqual([]);
  });
});

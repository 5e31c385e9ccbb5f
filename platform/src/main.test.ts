import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('process entry', () => {
  it('stops at start-up with a message naming a bad variable', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'platform/src/main.ts'], {
      cwd: resolve(__dirname, '../..'),
      env: { PATH: process.env.PATH, PORT: 'not-a-port', SERVICES: 'all' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('PORT');
  });
});

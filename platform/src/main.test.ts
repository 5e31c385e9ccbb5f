import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitOf, processEntry, startEntry } from './testing/process-entry';

const repository = resolve(__dirname, '../..');

/** `pnpm start` without pnpm: the process entry with only the variables given. */
function runEntry(env: Record<string, string>) {
  return spawnSync(process.execPath, processEntry, { cwd: repository, env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', timeout: 60_000 });
}

describe('process entry', () => {
  let dataDir: string;
  const running: ChildProcess[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'main-'));
  });
  afterEach(async () => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops at start-up with a message naming a bad variable', () => {
    const result = runEntry({ PORT: 'not-a-port', SERVICES: 'all' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('PORT');
  });

  it('stops a production start that requires confirmed emails but delivers no mail, naming both variables', () => {
    const result = runEntry({ NODE_ENV: 'production', PRINCIPAL_SECRET: 'x'.repeat(32), IDENTITY_REQUIRE_CONFIRMED_EMAIL: 'true', DATA_DIR: dataDir, PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('start-up failed: Invalid configuration:\n  - IDENTITY_REQUIRE_CONFIRMED_EMAIL: true needs mail delivery: set SMTP_URL (without it, production writes mails to the log and no account could confirm its email)\n');
  }, 60_000);

  it('names an SMTP_URL nodemailer cannot use at start-up, without a stack', () => {
    const result = runEntry({ SMTP_URL: 'ftp://mail.example.org', DATA_DIR: dataDir, PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('start-up failed: Invalid configuration:\n  - SMTP_URL: must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@host:465\n');
  }, 60_000);

  it('names a MAIL_FROM that is not one address at start-up, before any mail is refused', () => {
    const result = runEntry({ MAIL_FROM: 'Acme, no-reply', DATA_DIR: dataDir, PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('start-up failed: Invalid configuration:\n  - MAIL_FROM: must be one address, e.g. "Acme <no-reply@acme.example>" or no-reply@acme.example\n');
  }, 60_000);

  it('names a busy port and the variable to change, in one line without a stack', async () => {
    const holder: Server = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    const port = (holder.address() as { port: number }).port;
    try {
      const result = runEntry({ PORT: String(port), DATA_DIR: dataDir });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`start-up failed: port ${port} is in use: set PORT (PORT=0 picks a free one)\n`);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('names a busy metrics port by METRICS_PORT, not PORT', async () => {
    const holder: Server = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    const port = (holder.address() as { port: number }).port;
    try {
      const result = runEntry({ PORT: '0', METRICS_PORT: String(port), DATA_DIR: dataDir });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`start-up failed: metrics port ${port} is in use: set METRICS_PORT (METRICS_PORT=0 picks a free one)\n`);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('names a data directory another process holds, and DATA_DIR', async () => {
    const first = await startEntry({ PORT: '0', DATA_DIR: dataDir });
    running.push(first.child);
    const second = runEntry({ PORT: '0', DATA_DIR: dataDir });
    expect(second.status).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(new RegExp(`^start-up failed: the data directory ${dataDir}\\S* is in use by process ${first.child.pid} .*set DATA_DIR`));
  }, 90_000);

  it('stops at start-up on a corrupt store log, naming the file and byte offset in one line', async () => {
    await writeFile(join(dataDir, 'store.wal'), '{"c":"items","put":{"id":"a"}}\nnot json\n{"c":"items","put":{"id":"b"}}\n');
    const result = runEntry({ PORT: '0', DATA_DIR: dataDir });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `start-up failed: ${join(dataDir, 'store.wal')} is corrupt at byte offset 31 (line 2): the line is not JSON and valid lines follow it; restore a backup (start with DATA_DIR set to its directory)\n`,
    );
  }, 60_000);

  it('exits 0 on SIGINT after a clean shutdown, without a stack, releasing the data directory', async () => {
    const first = await startEntry({ PORT: '0', DATA_DIR: dataDir });
    running.push(first.child);
    const exited = exitOf(first.child);
    first.child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(first.output().stderr).toBe('');
    expect(first.output().stdout).toContain('"shutting down"');

    // The shutdown released the data directory's locks (a kill would leave them for the next start to take over).
    const files = await readdir(dataDir, { recursive: true });
    expect(files.filter((file) => basename(file) === 'LOCK')).toEqual([]);
  }, 90_000);

  it('ends `pnpm start` on Ctrl-C with status 0 and no "ELIFECYCLE Command failed"', async () => {
    const started = await startEntry({ PORT: '0', DATA_DIR: dataDir }, 'pnpm start');
    running.push(started.child);
    const exited = exitOf(started.child);
    // A terminal's Ctrl-C reaches every process of the foreground group: pnpm, its shell and node.
    process.kill(-started.child.pid!, 'SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(started.output().stdout + started.output().stderr).not.toContain('ELIFECYCLE');
    expect(started.output().stderr).toBe('');
  }, 90_000);
});

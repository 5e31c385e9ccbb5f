import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpCaller, registerAccount, type HttpCall } from './testing/platform-http';

const repository = resolve(__dirname, '../..');
/** Enough creates at once that the audit consumer still has a backlog when the last answer arrives. */
const BULK_REQUESTS = 6;
const OPERATIONS_PER_REQUEST = 500;

interface RunningEntry {
  child: ChildProcess;
  call: HttpCall;
  /** The process's JSON log lines so far. */
  logs: () => Array<Record<string, unknown>>;
}

/** `pnpm start` on DATA_DIR as a real process; resolves once it listens. */
async function startEntry(dataDir: string, env: Record<string, string> = {}): Promise<RunningEntry> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/main.ts'], { cwd: repository, env: { PATH: process.env.PATH, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const logs = () => stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  const url = await new Promise<string>((started, failed) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = logs().find((entry) => entry.msg === 'platform started');
      if (line) started(`http://127.0.0.1:${line.port as number}`);
    });
    child.once('exit', (code) => failed(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  return { child, call: httpCaller(() => url), logs };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => (child.exitCode === null ? child.once('exit', (code) => done(code)) : done(child.exitCode)));
}

/** A project with one type, then BULK_REQUESTS bulk creates sent at once; answers once every one answered. */
async function writeBacklog(call: HttpCall): Promise<{ token: string; projectId: string }> {
  const { token } = await registerAccount(call, 'stopper');
  const project = await call('POST', '/api/projects', token, { name: 'Graceful stop' });
  expect(project.status).toBe(201);
  const projectId = project.body.id as string;
  expect((await call('POST', `/api/projects/${projectId}/types`, token, { id: 'notes', name: 'Notes' })).status).toBe(201);
  const answers = await Promise.all(
    Array.from({ length: BULK_REQUESTS }, (_, request) =>
      call('POST', `/api/projects/${projectId}/types/notes/data/bulk`, token, {
        operations: Array.from({ length: OPERATIONS_PER_REQUEST }, (_, index) => ({ op: 'create', fields: { id: `note-${request}-${index}`, title: `note ${index}` } })),
      }),
    ),
  );
  for (const answer of answers) expect(answer.body.results.every((result: { status: number }) => result.status === 201)).toBe(true);
  return { token, projectId };
}

const auditTotal = async (call: HttpCall, token: string, projectId: string) => (await call('GET', `/api/projects/${projectId}/audit-trail?typeId=notes&limit=1`, token)).body.total as number;

describe('a graceful stop of the all-in-one', () => {
  let dataDir: string;
  const running: ChildProcess[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'graceful-stop-'));
  });
  afterEach(async () => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lets the consumers handle every event already published: after SIGTERM and a restart the audit trail has every change', async () => {
    const first = await startEntry(dataDir);
    running.push(first.child);
    const { token, projectId } = await writeBacklog(first.call);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    expect(first.logs().filter((line) => String(line.msg).startsWith('shutdown:'))).toEqual([]);

    const second = await startEntry(dataDir);
    running.push(second.child);
    // The outbox sweep may republish a change whose pull had not reached the disk: audit takes it once.
    await expect.poll(() => auditTotal(second.call, token, projectId), { timeout: 10_000 }).toBe(BULK_REQUESTS * OPERATIONS_PER_REQUEST);
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toBe(0);
  }, 120_000);

  it('past SHUTDOWN_DRAIN_MS stops anyway and warns how many messages each consumer was left with', async () => {
    const entry = await startEntry(dataDir, { SHUTDOWN_DRAIN_MS: '0' });
    running.push(entry.child);
    await writeBacklog(entry.call);
    entry.child.kill('SIGTERM');
    expect(await exitOf(entry.child)).toBe(0);
    const warnings = entry.logs().filter((line) => String(line.msg).startsWith('shutdown:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, drainLimitMs: 0, left: { 'audit-trail': expect.any(Number) } });
    expect(warnings[0]!.left).not.toHaveProperty('gateway-sync-notifier');
    expect(warnings[0]!.msg).toContain('SHUTDOWN_DRAIN_MS');
  }, 120_000);
});

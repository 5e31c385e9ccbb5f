import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccount, type HttpCall } from './testing/platform-http';
import { exitOf, startEntry } from './testing/process-entry';

/** Enough creates at once that the audit consumer still has a backlog when the last answer arrives. */
const BULK_REQUESTS = 6;
const OPERATIONS_PER_REQUEST = 500;

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
    const first = await startEntry({ PORT: '0', DATA_DIR: dataDir });
    running.push(first.child);
    const { token, projectId } = await writeBacklog(first.call);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toEqual({ code: 0, signal: null });
    expect(first.logs().filter((line) => String(line.msg).startsWith('shutdown:'))).toEqual([]);

    const second = await startEntry({ PORT: '0', DATA_DIR: dataDir });
    running.push(second.child);
    // The outbox sweep may republish a change whose pull had not reached the disk: audit takes it once.
    await expect.poll(() => auditTotal(second.call, token, projectId), { timeout: 10_000 }).toBe(BULK_REQUESTS * OPERATIONS_PER_REQUEST);
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('past SHUTDOWN_DRAIN_MS stops anyway and warns how many messages each consumer was left with', async () => {
    const entry = await startEntry({ PORT: '0', DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: '0' });
    running.push(entry.child);
    await writeBacklog(entry.call);
    entry.child.kill('SIGTERM');
    expect(await exitOf(entry.child)).toEqual({ code: 0, signal: null });
    const warnings = entry.logs().filter((line) => String(line.msg).startsWith('shutdown:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, drainLimitMs: 0, left: { 'audit-trail': expect.any(Number) } });
    expect(warnings[0]!.left).not.toHaveProperty('gateway-sync-notifier');
    expect(warnings[0]!.msg).toContain('SHUTDOWN_DRAIN_MS');
  }, 120_000);
});

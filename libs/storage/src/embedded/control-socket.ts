import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import type { BackupSummary } from '../port';

/**
 * The embedded store admits one process per data directory (its `LOCK`), so a command-line tool
 * cannot open the store of a running platform. The owning process answers on a Unix socket in
 * the data directory instead, readable only by its user (mode 0600): one JSON line in, one out.
 */
export const CONTROL_SOCKET_FILE = 'control.sock';

/** Longest request accepted: a directory path and a little JSON. */
const MAX_REQUEST_BYTES = 16 * 1024;

const backupSummarySchema = z.object({ directory: z.string(), bytes: z.number(), records: z.number(), durationMs: z.number() }) satisfies z.ZodType<BackupSummary>;

const controlRequestSchema = z.object({ op: z.literal('backup'), directory: z.string().min(1).max(4096) });

const controlResponseSchema = z.union([z.object({ ok: z.literal(true), backup: backupSummarySchema }), z.object({ ok: z.literal(false), error: z.string() })]);

export interface ControlHandlers {
  backup(directory: string): Promise<BackupSummary>;
}

/**
 * Serves the control socket of `dataDir` until the returned function is called. Where no Unix
 * socket can be made (Windows, or a path too long for one), nothing is served and tools say so.
 */
export async function serveControlSocket(dataDir: string, handlers: ControlHandlers): Promise<() => Promise<void>> {
  const path = join(dataDir, CONTROL_SOCKET_FILE);
  if (process.platform === 'win32') return async () => {};
  // A socket file left by a process that died; the directory lock says no live owner holds it.
  await rm(path, { force: true });
  const server = createServer((socket) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      received += chunk;
      const newline = received.indexOf('\n');
      if (newline === -1) {
        if (received.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.pause();
      void answer(received.slice(0, newline)).then((response) => socket.end(`${JSON.stringify(response)}\n`));
    });
  });
  const answer = async (line: string): Promise<z.infer<typeof controlResponseSchema>> => {
    let request: z.infer<typeof controlRequestSchema>;
    try {
      request = controlRequestSchema.parse(JSON.parse(line));
    } catch (error) {
      return { ok: false, error: `bad request: ${(error as Error).message}` };
    }
    try {
      return { ok: true, backup: await handlers.backup(request.directory) };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  };
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(path, () => resolve(true));
  });
  if (!listening) return async () => {};
  await chmod(path, 0o600);
  server.unref();
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(path, { force: true });
  };
}

/** Asks the process that owns `dataDir` for a backup into `directory` (an absolute path). */
export async function requestBackup(dataDir: string, directory: string): Promise<BackupSummary> {
  const path = join(dataDir, CONTROL_SOCKET_FILE);
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = createConnection(path, () => socket.write(`${JSON.stringify({ op: 'backup', directory })}\n`));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('end', () => resolve(received));
    socket.on('error', (error) => reject(new Error(`the process that owns ${dataDir} does not answer on ${path}: ${error.message}`)));
  });
  const response = controlResponseSchema.parse(JSON.parse(reply));
  if (!response.ok) throw new Error(response.error);
  return response.backup;
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@platform/testkit/servers';
import { bundleLikeImage, imageOfWorkingTree, runsImageBuild } from './image-build';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** One secret for every platform process of a run: a process that hosts only some services refuses to start without it. */
const runPrincipalSecret = randomBytes(32).toString('hex');

/** How a platform process is started: node's arguments and its working directory. */
export interface PlatformCommand {
  args: string[];
  cwd: string;
  /** What the build needs set besides each process's own settings (the image's ENV lines). */
  environment?: Record<string, string>;
}

/** The sources through tsx, as `pnpm start` runs them. */
const SOURCE_COMMAND: PlatformCommand = { args: ['--import', 'tsx', 'platform/src/main.ts'], cwd: repositoryRoot };

let imageDirectory: Promise<string> | undefined;

/**
 * How this run starts a platform process: the sources through tsx, or with `BENCH_BUILD=image`
 * the working tree's bundle as the image's CMD runs it (bundled once a run).
 */
export async function platformCommand(): Promise<PlatformCommand> {
  if (!runsImageBuild()) return SOURCE_COMMAND;
  imageDirectory ??= imageOfWorkingTree(repositoryRoot);
  const directory = await imageDirectory;
  // As the Dockerfile's ENV lines set them.
  return { args: ['dist/platform.mjs'], cwd: directory, environment: { NODE_ENV: 'production', CONSOLE_DIR: join(directory, 'console'), GUIDES_DIR: join(directory, 'docs') } };
}

export interface PlatformProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `platform/src/main.ts` (or `command`, such as a bundle) as its own process, so the load
 * generator and the server do not share an event loop; resolves once /api/health answers.
 */
export async function startPlatformProcess(environment: Record<string, string>, given?: PlatformCommand): Promise<PlatformProcess> {
  const command = given ?? (await platformCommand());
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-data-'));
  const child = spawn(process.execPath, command.args, {
    cwd: command.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PRINCIPAL_SECRET: runPrincipalSecret,
      ...command.environment,
      ...environment,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await answering(`${url}/api/health`, child, 'platform process');
  // The data directory goes with the process: a PATCH run leaves over 100 MB of log behind.
  return { url, child, stop: () => stopChild(child).then(() => rm(dataDir, { recursive: true, force: true })) };
}

/** Waits until `url` answers 2xx, failing if the child exits or a minute passes. */
async function answering(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not become healthy`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** The V8 settings the platform gives itself (platform/src/v8-tuning.ts), for the bench's own child processes, so their figures are taken as the platform runs. */
export const PLATFORM_V8_FLAGS = ['--no-allocation-site-pretenuring'];

/** The reference proxies of the gateway-overhead suite (bench/src/reference-proxies). */
export type ReferenceProxy = 'fastify-http-proxy' | 'node-undici-proxy';

/** A reference proxy in its own process in front of `upstream`; resolves once its proxied health route answers. */
export async function startReferenceProxy(kind: ReferenceProxy, upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const image = runsImageBuild();
  const entry = `bench/src/reference-proxies/${kind}.ts`;
  const program = image ? [await bundleLikeImage(join(repositoryRoot, entry))] : ['--import', 'tsx', entry];
  // Under the platform's V8 settings (and the image's NODE_ENV with its build), so the comparison is of the code alone.
  const child = spawn(process.execPath, [...PLATFORM_V8_FLAGS, ...program], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', UPSTREAM: upstream, PORT: String(port), ...(image ? { NODE_ENV: 'production' } : {}) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await answering(`${url}/api/health/data`, child, kind);
  return { url, stop: () => stopChild(child) };
}

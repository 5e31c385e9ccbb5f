import { execFile } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes';

const run = promisify(execFile);

/** A private PostgreSQL cluster on a loopback port, for FerretDB's PostgreSQL backend. */
export interface PostgresCluster {
  /** The `postgres` database as its superuser, without a password (trust on loopback). */
  readonly url: string;
  /** Stops the server once; later calls wait for that stop. */
  stop(): Promise<void>;
}

const SERVER_PROGRAMS = ['initdb', 'pg_ctl'] as const;

/** Debian keeps the server programs in /usr/lib/postgresql/<version>/bin, off the PATH. */
function postgresBinDir(): string | undefined {
  const candidates = (process.env.PATH ?? '').split(':').filter(Boolean);
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  } catch {
    // no Debian PostgreSQL installed; the PATH may still have one
  }
  return candidates.find((dir) => SERVER_PROGRAMS.every((program) => isExecutable(join(dir, program))));
}

function isExecutable(path: string): boolean {
  return hasAccess(path, constants.X_OK);
}

function hasAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** True when PostgreSQL's server programs (initdb, pg_ctl) are installed. */
export function hasPostgresServer(): boolean {
  return postgresBinDir() !== undefined;
}

/**
 * Creates and starts a cluster in `<dataDir>/postgresql` (reused when it already exists). The
 * server refuses to run as root, so as root it runs as the `postgres` user Debian's package adds.
 * A throwaway server like the SQLite one: no fsync, so disk flushes do not dominate the figures.
 */
export async function startPostgresCluster(dataDir: string): Promise<PostgresCluster> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error('PostgreSQL server programs (initdb, pg_ctl) not found: apt-get install postgresql');
  const asServerUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const pg = async (program: string, args: string[]) => {
    const [command, ...rest] = [...asServerUser, join(binDir, program), ...args];
    return run(command!, rest, { timeout: 120_000 });
  };
  const clusterDir = join(dataDir, 'postgresql');
  const port = await freePort();
  if (!exists(join(clusterDir, 'PG_VERSION'))) {
    await mkdir(clusterDir, { recursive: true });
    if (asServerUser.length) await chownToServerUser([dataDir, clusterDir]);
    await pg('initdb', ['-D', clusterDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  }
  const serverOptions = `-h 127.0.0.1 -p ${port} -k ${clusterDir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  await pg('pg_ctl', ['-D', clusterDir, '-l', join(clusterDir, 'server.log'), '-o', serverOptions, '-w', 'start']);
  let stopping: Promise<unknown> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      stopping ??= pg('pg_ctl', ['-D', clusterDir, '-m', 'fast', '-w', 'stop']);
      await stopping;
    },
  };
}

function exists(path: string): boolean {
  return hasAccess(path, constants.F_OK);
}

async function chownToServerUser(paths: string[]): Promise<void> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  for (const path of paths) await chown(path, Number(stdout.trim()), Number(group.trim()));
}

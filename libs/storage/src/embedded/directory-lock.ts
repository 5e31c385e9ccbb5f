import { randomUUID } from 'node:crypto';
import { link, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const heldInThisProcess = new Set<string>();

/** Another live process owns the directory; `code` lets a process entry recognise it without importing this class. */
export class DataDirectoryInUseError extends Error {
  readonly code = 'DATA_DIRECTORY_IN_USE';

  constructor(
    readonly directory: string,
    readonly holderPid: number,
  ) {
    super(`the data directory ${directory} is in use by process ${holderPid}`);
    this.name = 'DataDirectoryInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates `file` holding this process's pid, or fails with EEXIST. The pid is written to a
 * private file first and hard-linked into place, so another process never reads a lock that
 * exists but is still empty (and would take it for a dead one).
 */
async function createLockFile(file: string): Promise<void> {
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  await writeFile(draft, String(process.pid));
  try {
    await link(draft, file);
  } finally {
    await rm(draft, { force: true });
  }
}

/**
 * One process at a time may own a data directory: two would overwrite each other's logs. A lock
 * left by a process that died (kill -9) is taken over.
 */
export async function lockDirectory(directory: string): Promise<() => Promise<void>> {
  // The directory's one true path: two spellings of it (relative, through a symlink) are one directory.
  const file = join(await realpath(directory), 'LOCK');
  // Claimed before the next await: of two opens started together in this process, one is refused.
  if (heldInThisProcess.has(file)) throw new Error(`the data directory ${directory} is already open in this process`);
  heldInThisProcess.add(file);
  try {
    for (;;) {
      try {
        await createLockFile(file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
        if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
          throw new DataDirectoryInUseError(directory, holder);
        }
        await rm(file, { force: true });
      }
    }
  } catch (error) {
    heldInThisProcess.delete(file);
    throw error;
  }
  return async () => {
    heldInThisProcess.delete(file);
    await rm(file, { force: true });
  };
}

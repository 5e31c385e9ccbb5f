import { open, readFile, rm } from 'node:fs/promises';
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
 * One process at a time may own a data directory: two would overwrite each other's logs. A lock
 * left by a process that died (kill -9) is taken over.
 */
export async function lockDirectory(directory: string): Promise<() => Promise<void>> {
  const file = join(directory, 'LOCK');
  if (heldInThisProcess.has(file)) throw new Error(`the data directory ${directory} is already open in this process`);
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
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
  heldInThisProcess.add(file);
  return async () => {
    heldInThisProcess.delete(file);
    await rm(file, { force: true });
  };
}

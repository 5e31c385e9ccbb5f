import { open, readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories this process holds, so a second opener in the same process is refused too. */
const heldInThisProcess = new Set<string>();

/** A FileStore directory is already open (in this process or another live one). */
export class StoreLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly holderPid: number,
  ) {
    super(`The store directory ${directory} is already open by process ${holderPid}${holderPid === process.pid ? ' (this one)' : ''}: one writer per store; close the other client first`);
    this.name = 'StoreLockedError';
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
 * Takes `directory/LOCK` (created exclusively, holding the pid), as the server does for its data
 * directory: two writers would each rewrite the files from their own copy and lose the other's
 * writes. A lock left by a process that died is taken over. Answers the function that releases it.
 */
export async function lockDirectory(directory: string): Promise<() => Promise<void>> {
  const resolved = await realpath(directory);
  const file = join(resolved, 'LOCK');
  if (heldInThisProcess.has(resolved)) throw new StoreLockedError(directory, process.pid);
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) throw new StoreLockedError(directory, holder);
      await rm(file, { force: true });
    }
  }
  heldInThisProcess.add(resolved);
  return async () => {
    heldInThisProcess.delete(resolved);
    await rm(file, { force: true });
  };
}

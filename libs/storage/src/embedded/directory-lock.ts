import { randomUUID } from 'node:crypto';
import { link, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { holderText, liveHolder, LOCK_REFRESH_MS } from './lock-holder';

const heldInThisProcess = new Set<string>();

/** How long an opener waits while another takes over a stale lock (a few file operations). */
const TAKEOVER_WAIT_MS = 5;

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

/**
 * Creates `file` holding this process's pid, or fails with EEXIST. The pid is written to a
 * private file first and hard-linked into place, so another process never reads a lock that
 * exists but is still empty (and would take it for a dead one).
 */
async function createLockFile(file: string): Promise<void> {
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  await writeFile(draft, holderText());
  try {
    await link(draft, file);
  } finally {
    await rm(draft, { force: true });
  }
}

/** A lock file's text (its holder's pid), or '' when it is gone. */
async function lockText(file: string): Promise<string> {
  return (await readFile(file, 'utf8').catch(() => '')).trim();
}

/**
 * Removes a lock whose text `stale` names no live process, while holding `LOCK.takeover`: two
 * openers that both found it stale would otherwise both remove it, the second removing the lock
 * the first had just made, and both would hold the directory. Under the takeover lock the LOCK is
 * removed only if it still holds that text. An opener that finds the takeover held waits for it
 * (or, if its holder died mid-takeover, clears it) and looks again.
 */
async function clearStaleLock(file: string, stale: string): Promise<void> {
  const takeover = `${file}.takeover`;
  try {
    await createLockFile(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if ((await liveHolder(takeover, await lockText(takeover))) !== undefined) await new Promise((resolve) => setTimeout(resolve, TAKEOVER_WAIT_MS));
    else await rm(takeover, { force: true });
    return;
  }
  try {
    if ((await lockText(file)) === stale) await rm(file, { force: true });
  } finally {
    await rm(takeover, { force: true });
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
        const held = await lockText(file);
        const holder = await liveHolder(file, held);
        if (holder !== undefined) throw new DataDirectoryInUseError(directory, holder);
        await clearStaleLock(file, held);
      }
    }
  } catch (error) {
    heldInThisProcess.delete(file);
    throw error;
  }
  // Touched while held: an opener in another pid namespace (a container on the same volume) can only tell a held lock by that.
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, LOCK_REFRESH_MS);
  refresh.unref();
  return async () => {
    clearInterval(refresh);
    heldInThisProcess.delete(file);
    await rm(file, { force: true });
  };
}

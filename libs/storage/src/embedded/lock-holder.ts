import { readFileSync, readlinkSync } from 'node:fs';
import { stat } from 'node:fs/promises';

/** How often a held lock's file is touched, so an opener that cannot check the holder's pid sees it is held. */
export const LOCK_REFRESH_MS = 10_000;
/** A lock of another pid namespace not touched for this long is taken for a dead holder's. */
export const LOCK_STALE_AFTER_MS = 3 * LOCK_REFRESH_MS;

/** What a lock file says of its holder: its pid, and (on Linux) its pid namespace and the machine's boot. */
interface LockHolder {
  pid: number;
  namespace?: string;
  boot?: string;
}

function readOrEmpty(read: () => string): string {
  try {
    return read().trim();
  } catch {
    return '';
  }
}

/** This process as a lock file names it. Where /proc is missing (macOS), the pid alone. */
const here: LockHolder = {
  pid: process.pid,
  namespace: readOrEmpty(() => readlinkSync('/proc/self/ns/pid')),
  boot: readOrEmpty(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
};

/** The text a lock file holds for this process: the pid on the first line (what older versions wrote alone). */
export function holderText(): string {
  return [here.pid, here.namespace, here.boot].join('\n');
}

function parseHolder(text: string): LockHolder {
  const [pid = '', namespace, boot] = text.split('\n');
  return { pid: Number(pid), ...(namespace ? { namespace } : {}), ...(boot ? { boot } : {}) };
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
 * Whether the lock `text` in `file` is held by a live process. A pid says so only within one pid
 * namespace of one boot: two containers sharing a volume each run as pid 1, so a holder of another
 * namespace is live while it keeps touching the file (every LOCK_REFRESH_MS); one of an earlier
 * boot is gone. Answers the holder's pid when live.
 */
export async function liveHolder(file: string, text: string): Promise<number | undefined> {
  const holder = parseHolder(text);
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return undefined;
  if (holder.boot && here.boot && holder.boot !== here.boot) return undefined;
  if (holder.namespace && here.namespace && holder.namespace !== here.namespace) {
    const touched = await stat(file).then((found) => found.mtimeMs, () => 0);
    return Date.now() - touched < LOCK_STALE_AFTER_MS ? holder.pid : undefined;
  }
  return holder.pid !== here.pid && isAlive(holder.pid) ? holder.pid : undefined;
}

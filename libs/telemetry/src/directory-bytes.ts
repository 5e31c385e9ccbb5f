import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The bytes of every file under `dir` (0 when it does not exist); files removed meanwhile count 0. */
export async function directoryBytes(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return 0;
  }
  const sizes = await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => stat(join(entry.parentPath, entry.name)).then((info) => info.size, () => 0)));
  return sizes.reduce((total, size) => total + size, 0);
}

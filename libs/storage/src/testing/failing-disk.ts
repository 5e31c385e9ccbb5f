import { open, stat, type FileHandle } from 'node:fs/promises';

/**
 * Makes every write to `file` (the file it is now, by inode) fail with EIO, as a failing disk
 * does, and with `truncate: true` every truncate of it too; other files are written as usual.
 * Answers the function that makes them work again.
 */
export async function failWritesTo(file: string, { truncate = false }: { truncate?: boolean } = {}): Promise<() => void> {
  const { ino } = await stat(file);
  const probe = await open(file, 'r');
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const write = prototype.write;
  prototype.write = async function (this: FileHandle, ...args: unknown[]) {
    if ((await this.stat()).ino === ino) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    return (write as (...args: unknown[]) => Promise<unknown>).apply(this, args);
  } as FileHandle['write'];
  const cut = prototype.truncate;
  if (truncate) {
    prototype.truncate = async function (this: FileHandle, ...args: unknown[]) {
      if ((await this.stat()).ino === ino) throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
      return (cut as (...args: unknown[]) => Promise<void>).apply(this, args);
    } as FileHandle['truncate'];
  }
  return () => {
    prototype.write = write;
    prototype.truncate = cut;
  };
}

import { open, stat, type FileHandle } from 'node:fs/promises';

/**
 * Makes every write to `file` (the file it is now, by inode) fail with EIO, as a failing disk
 * does; other files are written as usual. Answers the function that makes writes work again.
 */
export async function failWritesTo(file: string): Promise<() => void> {
  const { ino } = await stat(file);
  const probe = await open(file, 'r');
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const write = prototype.write;
  prototype.write = async function (this: FileHandle, ...args: unknown[]) {
    if ((await this.stat()).ino === ino) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    return (write as (...args: unknown[]) => Promise<unknown>).apply(this, args);
  } as FileHandle['write'];
  return () => {
    prototype.write = write;
  };
}

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repository = resolve(__dirname, '../..');
const read = (file: string) => readFileSync(resolve(repository, file), 'utf8');
/** The guides a clone holds: the README, docs/ and the packages' own READMEs. */
const guides = execFileSync('git', ['ls-files', 'README.md', 'docs/*.md', '*/*/README.md'], { cwd: repository, encoding: 'utf8' }).trim().split('\n');

/** A file inside this repository (a path outside it, like ../shared, is not in a clone). */
function inClone(file: string): boolean {
  return !relative(repository, file).startsWith('..') && existsSync(file);
}

/** Relative Markdown link targets (no URL, no server path like /llm.txt, no bare #anchor), without their anchor. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!.split('#')[0]!).filter((target) => target !== '' && !/^([a-z]+:|\/)/.test(target));
}

describe('the repository stands alone', () => {
  it('links only files a clone holds, from the README, docs/ and the package READMEs', () => {
    expect(guides).toEqual(expect.arrayContaining(['README.md', 'docs/interface.md', 'docs/architecture.md']));
    const missing = guides.flatMap((guide) => {
      const linked = relativeLinks(read(guide)).map((target) => resolve(repository, dirname(guide), target));
      const missingLinks = linked.filter((file) => !inClone(file)).map((file) => relative(repository, file));
      // A guide named in code style (`docs/ports.md`, `../shared/x.md`, not a server path like `/docs/x.md`) is read from the repository's root or from beside the guide.
      const named = [...read(guide).matchAll(/`([\w.][\w./-]*\.md)`/g)].map((match) => match[1]!);
      const missingNames = named.filter((name) => !inClone(resolve(repository, name)) && !inClone(resolve(repository, dirname(guide), name)));
      return [...missingLinks, ...missingNames].map((target) => `${guide} -> ${target}`);
    });
    expect(missing).toEqual([]);
  });

  it('starts the README with the two commands, then the Node version and PORT/DATA_DIR beside the start command', () => {
    const readme = read('README.md');
    const quickStart = readme.slice(0, readme.indexOf('\n## '));
    const firstBlock = /```bash\n([\s\S]*?)```/.exec(quickStart)![1]!;
    expect(firstBlock.split('\n').filter((line) => line && !line.startsWith('#'))).toEqual(['npm i -g pnpm@10 && pnpm install && pnpm start', 'pnpm test']);
    const engine = /^>=(\d+\.\d+)$/.exec((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node)![1]!;
    expect(quickStart).toContain(`Node.js ${engine} or later`);
    expect(quickStart).toMatch(/`PORT=\d+ DATA_DIR=\S+ pnpm start`/);
  });
});

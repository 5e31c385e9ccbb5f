import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One workspace package: its folder, name and declared dependencies. */
export interface WorkspacePackage {
  dir: string;
  name: string;
  dependencies: string[];
}

/** The packages under `<root>/<group>/*` (group: `libs` or `services`). */
export function workspacePackages(root: string, group: string): WorkspacePackage[] {
  const base = join(root, group);
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, 'package.json')))
    .map((entry) => {
      const dir = join(base, entry.name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
      return { dir, name: manifest.name, dependencies: Object.keys(manifest.dependencies ?? {}) };
    });
}

/** Every .ts file under a folder, skipping node_modules. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Test code may start other services (a test platform); shipped code may not. */
export function isTestCode(file: string): boolean {
  return file.endsWith('.test.ts') || file.split(/[\\/]/).includes('testing');
}

/** Every module a file names: static imports and re-exports (type-only included), dynamic imports and `import('x')` types. */
export function importSpecifiers(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((imported) => imported.fileName);
}

/** The file a relative specifier names, when it exists. */
export function resolveRelative(file: string, specifier: string): string | undefined {
  const target = resolve(dirname(file), specifier);
  return [`${target}.ts`, join(target, 'index.ts'), target].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/** Import cycles among the files of one folder (relative imports only), each as paths relative to the folder. */
export function importCycles(dir: string): string[][] {
  const files = sourceFiles(dir);
  const edges = new Map(files.map((file) => [file, importSpecifiers(file).filter((specifier) => specifier.startsWith('.')).flatMap((specifier) => resolveRelative(file, specifier) ?? [])]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push(path.slice(path.indexOf(next)).map((member) => relative(dir, member)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

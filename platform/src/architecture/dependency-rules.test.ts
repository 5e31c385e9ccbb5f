import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importSpecifiers, isTestCode, resolveRelative, sourceFiles, workspacePackages } from './import-graph';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const libs = workspacePackages(root, 'libs');
const services = workspacePackages(root, 'services');
const libNames = new Set(libs.map((lib) => lib.name));
const packageOf = (specifier: string) => specifier.split('/').slice(0, 2).join('/');

// docs/architecture.md: services/* use libs/*; a service never imports another service's package.
describe('services depend only on libraries', () => {
  it('declares no other service among its dependencies', () => {
    const declared = services.flatMap((service) => service.dependencies.filter((dependency) => dependency.startsWith('@platform/') && !libNames.has(dependency)).map((dependency) => `${service.name} -> ${dependency}`));
    expect(declared).toEqual([]);
  });

  it('imports no other service from its shipped code, by package name or by path', () => {
    const imports = services.flatMap((service) =>
      sourceFiles(join(service.dir, 'src'))
        .filter((file) => !isTestCode(file))
        .flatMap((file) =>
          importSpecifiers(file)
            .filter((specifier) => {
              if (specifier.startsWith('@platform/')) return packageOf(specifier) !== service.name && !libNames.has(packageOf(specifier));
              const target = specifier.startsWith('.') ? resolveRelative(file, specifier) : undefined;
              return target !== undefined && relative(service.dir, target).startsWith('..');
            })
            .map((specifier) => `${relative(root, file)} -> ${specifier}`),
        ),
    );
    expect(imports).toEqual([]);
  });

  it('leaves libraries free of services', () => {
    const declared = libs.flatMap((lib) => lib.dependencies.filter((dependency) => services.some((service) => service.name === dependency)).map((dependency) => `${lib.name} -> ${dependency}`));
    expect(declared).toEqual([]);
  });
});

describe('no import cycles', () => {
  it.each([...services, ...libs].map((pkg) => [pkg.name, pkg.dir] as const))('within %s', (_name, dir) => {
    expect(importCycles(join(dir, 'src'))).toEqual([]);
  });
});

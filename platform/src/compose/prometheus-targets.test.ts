import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { prometheusTargetsFile } from './prometheus-targets';
import { loadStartServicesConfig } from './start-services-config';

const repositoryRoot = resolve(__dirname, '../../..');

describe('prometheusTargetsFile', () => {
  it('lists each process as a target group with its host:port, its service and its process name', () => {
    const file = prometheusTargetsFile([
      { service: 'data', instance: 'data-1', url: 'http://127.0.0.1:9465/metrics' },
      { service: 'gateway', instance: 'gateway', url: 'http://127.0.0.1:9467/metrics' },
    ]);
    expect(JSON.parse(file)).toEqual([
      { targets: ['127.0.0.1:9465'], labels: { service: 'data', process: 'data-1' } },
      { targets: ['127.0.0.1:9467'], labels: { service: 'gateway', process: 'gateway' } },
    ]);
    expect(file.endsWith('\n')).toBe(true);
  });

  it('is an empty list when no process serves metrics', () => {
    expect(JSON.parse(prometheusTargetsFile([]))).toEqual([]);
  });
});

describe('observability/prometheus-local.yml', () => {
  it('reads the targets file pnpm start:services writes with the default DATA_DIR', async () => {
    const configFile = resolve(repositoryRoot, 'observability/prometheus-local.yml');
    const config = parse(await readFile(configFile, 'utf8')) as { scrape_configs: Array<{ file_sd_configs: Array<{ files: string[] }> }> };
    const [file] = config.scrape_configs[0]!.file_sd_configs[0]!.files;
    // Prometheus resolves a relative path against the configuration file's directory.
    const written = resolve(loadStartServicesConfig({}, repositoryRoot).backendDataDir, 'prometheus-targets.json');
    expect(resolve(dirname(configFile), file!)).toBe(written);
  });
});

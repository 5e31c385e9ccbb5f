import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { metricsText } from '@platform/telemetry';
import { describe, expect, it } from 'vitest';

const repositoryRoot = resolve(__dirname, '../..');

interface Dashboard {
  panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
}

/** The metric families the processes serve, by name and Prometheus type (`# TYPE` lines). */
async function servedFamilies(): Promise<Map<string, string>> {
  const types = (await metricsText()).split('\n').filter((line) => line.startsWith('# TYPE '));
  return new Map(types.map((line) => line.split(' ').slice(2, 4) as [string, string]));
}

describe('the Grafana dashboard of the compose observability profile', () => {
  it('queries only metrics the processes serve, a histogram’s series through its _bucket', async () => {
    const dashboard = JSON.parse(await readFile(resolve(repositoryRoot, 'observability/grafana/dashboards/platform.json'), 'utf8')) as Dashboard;
    const families = await servedFamilies();
    const queried = dashboard.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => [...target.expr.matchAll(/\bplatform_[a-z_]+/g)].map(([name]) => ({ panel: panel.title, name }))));
    expect(queried.length).toBeGreaterThan(0);
    const unknown = queried.filter(({ name }) => {
      const histogram = name.endsWith('_bucket') ? name.slice(0, -'_bucket'.length) : undefined;
      return histogram ? families.get(histogram) !== 'histogram' : !families.has(name);
    });
    expect(unknown).toEqual([]);
  });

  it('shows every metric family the processes serve', async () => {
    const dashboard = await readFile(resolve(repositoryRoot, 'observability/grafana/dashboards/platform.json'), 'utf8');
    const missing = [...(await servedFamilies()).keys()].filter((name) => !dashboard.includes(name));
    expect(missing).toEqual([]);
  });
});

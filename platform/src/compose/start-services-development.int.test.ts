import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describeWithBackends } from '@platform/testkit';
import { freePort, hasExecutableSync } from '@platform/testkit/servers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { sharedBackendsEnvironment } from '../testing/shared-backends';

const run = promisify(execFile);
const repositoryRoot = resolve(__dirname, '../../..');
const platformServices = ['gateway', 'identity', 'data', 'audit', 'publishing', 'actions', 'visitors'];
/** What /api/health lists for a platform owner (nothing for anyone else). */
const ownerView = platformServices.filter((name) => name !== 'gateway').sort();
/** Debian's `prometheus` (.ci/run installs it): the scrape test runs only with it, and says so when skipped. */
const prometheusMissing = !hasExecutableSync('prometheus') && !process.env.CI;

interface PrometheusAnswer<T> {
  status: string;
  error?: string;
  data: T;
}

/** Debian's Prometheus on a free loopback port with `config`, until `stop`. */
async function startPrometheus(config: string, directory: string) {
  const configFile = join(directory, 'prometheus.yml');
  await writeFile(configFile, config);
  const url = `http://127.0.0.1:${await freePort()}`;
  const child = spawn('prometheus', [`--config.file=${configFile}`, `--storage.tsdb.path=${join(directory, 'tsdb')}`, `--web.listen-address=${url.slice('http://'.length)}`], { stdio: 'ignore' });
  const api = async <T>(path: string): Promise<PrometheusAnswer<T>> => (await (await fetch(`${url}/api/v1/${path}`)).json()) as PrometheusAnswer<T>;
  await expect.poll(() => fetch(`${url}/-/ready`).then((response) => response.status, () => 0), { timeout: 30_000, interval: 250 }).toBe(200);
  return {
    api,
    stop: () => new Promise<void>((done) => (child.exitCode === null ? (child.once('exit', () => done()), child.kill('SIGTERM')) : done())),
  };
}

describeWithBackends(['mongo', 'nats', 'redis'], 'NODE_ENV=development pnpm start:services, as a developer runs it', (urls) => {
  let child: ChildProcess;
  let output = '';
  let gatewayUrl: string;
  let dataDir: string;
  const unique = randomBytes(4).toString('hex');

  beforeAll(async () => {
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    dataDir = await mkdtemp(join(tmpdir(), 'start-services-dev-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/start-services.ts'], {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
        NODE_ENV: 'development',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        // A free metrics port for each process, as a developer would choose for a machine with other listeners.
        METRICS_PORT: '0',
        ...sharedBackendsEnvironment(urls, `start_dev_${unique}`),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`start:services exited (${code}):\n${output.slice(-4000)}`))));
    const ready = (async () => {
      while (!output.includes('gateway ready at')) await new Promise((done) => setTimeout(done, 250));
    })();
    await Promise.race([ready, exited]);
  }, 420_000);

  afterAll(async () => {
    if (child?.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      await new Promise((done) => child.once('exit', done));
    }
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  const post = (path: string, body: unknown) => fetch(`${gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const register = async (email: string) => {
    const response = await post('/api/auth/register', { email, password: 'local password 1' });
    expect(response.status).toBe(201);
    return ((await response.json()) as { token: string }).token;
  };
  const seesEveryService = async (token: string) => {
    const health = (await (await fetch(`${gatewayUrl}/api/health`, { headers: { authorization: `Bearer ${token}` } })).json()) as { services?: Record<string, unknown> };
    return Object.keys(health.services ?? {}).sort();
  };

  it("streams every service's own lines with its name as prefix, as the service wrote them when piped", async () => {
    // A service answers its health check as it logs "platform started"; the line may reach us a little later.
    const started = (service: string) => ({
      service,
      started: output.split('\n').some((line) => new RegExp(`^${service} *\\| \\{`).test(line) && line.includes('"msg":"platform started"') && line.includes(`"services":["${service}"]`)),
    });
    for (const service of platformServices) await expect.poll(() => started(service), { timeout: 10_000 }).toEqual({ service, started: true });
    expect(output).toContain(`start      | gateway ready at ${gatewayUrl} (development;`);
  });

  it('gives each process a metrics listener of its own (METRICS_PORT), listed at start and in a Prometheus targets file', async () => {
    await expect.poll(() => output.includes('Prometheus targets of this run'), { timeout: 15_000 }).toBe(true);
    const listed = /^start +\| metrics: (.+)$/m.exec(output)?.[1];
    const addresses = new Map(listed!.split(', ').map((entry) => entry.split(' ') as [string, string]));
    expect([...addresses.keys()].sort()).toEqual([...platformServices].sort());
    expect(new Set(addresses.values()).size).toBe(platformServices.length);
    const targets = JSON.parse(await readFile(join(dataDir, 'services', 'prometheus-targets.json'), 'utf8')) as Array<{ targets: string[]; labels: { service: string; process: string } }>;
    expect(targets.map(({ targets: [host], labels }) => [labels.process, `http://${host}/metrics`]).sort()).toEqual([...addresses].sort());
    for (const [service, url] of addresses) {
      const response = await fetch(url);
      expect(response.status, service).toBe(200);
      // Every process counts its own requests; each has answered health checks by now.
      expect(await response.text(), service).toContain('platform_http_requests_total');
    }
  });

  it.skipIf(prometheusMissing)(
    `a local Prometheus scrapes every process with observability/prometheus-local.yml, and runs every dashboard query${prometheusMissing ? ' [skipped: prometheus not installed]' : ''}`,
    async () => {
      await expect.poll(() => output.includes('Prometheus targets of this run'), { timeout: 15_000 }).toBe(true);
      // The shipped configuration, its file pointed at this run's DATA_DIR and scraping every second.
      const shipped = parse(await readFile(join(repositoryRoot, 'observability/prometheus-local.yml'), 'utf8')) as { global: Record<string, string>; scrape_configs: Array<{ file_sd_configs: Array<{ files: string[] }> }> };
      shipped.global.scrape_interval = '1s';
      shipped.scrape_configs[0]!.file_sd_configs[0]!.files = [join(dataDir, 'services', 'prometheus-targets.json')];
      const prometheusDir = await mkdtemp(join(tmpdir(), 'prometheus-'));
      const prometheus = await startPrometheus(stringify(shipped), prometheusDir);
      try {
        type Targets = { activeTargets: Array<{ labels: Record<string, string>; health: string }> };
        const upServices = async () => (await prometheus.api<Targets>('targets')).data.activeTargets.filter((target) => target.health === 'up').map((target) => target.labels.service).sort();
        await expect.poll(upServices, { timeout: 30_000, interval: 500 }).toEqual([...platformServices].sort());
        // Every process has counted requests (health probes at least), labelled with its service.
        type Vector = { result: Array<{ metric: Record<string, string> }> };
        const counted = async () => (await prometheus.api<Vector>(`query?query=${encodeURIComponent('sum by (service) (platform_http_requests_total)')}`)).data.result.map((series) => series.metric.service).sort();
        await expect.poll(counted, { timeout: 15_000, interval: 500 }).toEqual([...platformServices].sort());
        // The compose profile's dashboard: each query is one Prometheus takes.
        const dashboard = JSON.parse(await readFile(join(repositoryRoot, 'observability/grafana/dashboards/platform.json'), 'utf8')) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
        const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
        expect(queries.length).toBeGreaterThan(10);
        for (const query of queries) {
          const answer = await prometheus.api<unknown>(`query?query=${encodeURIComponent(query)}`);
          expect({ query, status: answer.status, error: answer.error }).toEqual({ query, status: 'success', error: undefined });
        }
      } finally {
        await prometheus.stop();
        await rm(prometheusDir, { recursive: true, force: true });
      }
    },
    90_000,
  );

  it("prints the first account's promotion URL, which makes it platform owner", async () => {
    const token = await register(`first-${unique}@example.org`);
    await expect.poll(() => /development owner promotion: open (\S+)/.exec(output)?.[1], { timeout: 15_000 }).toMatch(new RegExp(`^${gatewayUrl}/api/admin/dev/platform-owner/`));
    const promotionUrl = /development owner promotion: open (\S+)/.exec(output)![1]!;
    expect((await fetch(promotionUrl)).status).toBe(200);
    expect(await seesEveryService(token)).toEqual(ownerView);
  });

  it('prints the promote-owner command, which makes a signed-in account owner as printed', async () => {
    const email = `second-${unique}@example.org`;
    const token = await register(email);
    expect(await seesEveryService(token)).toEqual([]);
    const printed = /make an account platform owner: (.+ pnpm --filter identity promote-owner <email>)$/m.exec(output)?.[1];
    expect(printed).toBeDefined();
    const { stdout } = await run('sh', ['-c', printed!.replace('<email>', email)], { cwd: repositoryRoot, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 120_000 });
    expect(stdout).toContain(`${email} (`);
    // The session it refreshed: no new sign-in needed.
    expect(await seesEveryService(token)).toEqual(ownerView);
  }, 150_000);

  it("mails links on the gateway's address (PUBLIC_URL), not on the identity process's: a password reset link works as mailed", async () => {
    const email = `forgot-${unique}@example.org`;
    await register(email);
    expect((await post('/api/auth/password-reset', { email })).status).toBe(202);
    const link = () => /"text":"[^"]*?(http\S+?\/console\/reset-password#token=[A-Za-z0-9_-]+)/.exec(output)?.[1];
    await expect.poll(link, { timeout: 15_000 }).toMatch(new RegExp(`^${gatewayUrl}/console/reset-password#token=`));
    const page = await fetch(link()!.split('#')[0]!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const chosen = await post('/api/auth/password-reset/confirm', { token: link()!.split('#token=')[1], password: 'chosen again 1' });
    expect(chosen.status).toBe(200);
  });

  it('signs webhooks with a development secret kept under DATA_DIR/services: each project has its webhook key', async () => {
    const token = await register(`hooks-${unique}@example.org`);
    const created = await fetch(`${gatewayUrl}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ name: 'Hooks' }) });
    const projectId = ((await created.json()) as { id: string }).id;
    const listed = (await (await fetch(`${gatewayUrl}/api/projects/${projectId}/actions`, { headers: { authorization: `Bearer ${token}` } })).json()) as { webhookKey?: string };
    const secret = (await readFile(join(dataDir, 'services', 'webhook-secret'), 'utf8')).trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(listed.webhookKey).toBe(createHmac('sha256', secret).update(`webhook:${projectId}`).digest('hex'));
    expect(output).toContain('ACTIONS_WEBHOOK_SECRET is not set: generated a webhook secret for development kept in');
    expect(output).not.toContain(secret);
  });

  it('stops every service on Ctrl-C and exits 0', async () => {
    const exit = new Promise<number | null>((done) => child.once('exit', done));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    await expect(fetch(`${gatewayUrl}/api/health`)).rejects.toThrow();
  }, 60_000);
});

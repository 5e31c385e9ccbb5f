import { randomBytes } from 'node:crypto';
import { describeWithBackends } from '@platform/testkit';
import { freePort } from '@platform/testkit/servers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalTopology, type LocalTopology } from './local-topology';

describeWithBackends(['mongo', 'nats', 'redis'], 'the local topology in development mode, as pnpm start:services runs it', (urls) => {
  let topology: LocalTopology;
  let gatewayPort: number;
  const lines = new Map<string, string[]>();
  const events: string[] = [];

  beforeAll(async () => {
    gatewayPort = await freePort();
    topology = await startLocalTopology({
      backendUrls: urls,
      gatewayPort,
      variables: { NODE_ENV: 'development', LOG_LEVEL: 'info' },
      extraEnvironment: { MONGO_DATABASE: `local_${randomBytes(4).toString('hex')}` },
      onLine: (service, line) => lines.set(service, [...(lines.get(service) ?? []), line]),
      onEvent: (service, message) => events.push(`${service} ${message}`),
    });
  }, 420_000);

  afterAll(async () => {
    await topology?.stop();
  });

  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${topology.gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

  it("streams each service's own log lines under its name", async () => {
    // A process answers its health check as it logs "platform started"; the line may reach us a little later.
    const started = (service: string) => ({ service, started: (lines.get(service) ?? []).some((line) => line.includes('"msg":"platform started"') && line.includes(`"services":["${service}"]`)) });
    for (const service of ['gateway', 'identity', 'data', 'audit', 'publishing', 'actions', 'visitors']) {
      await expect.poll(() => started(service), { timeout: 10_000 }).toEqual({ service, started: true });
    }
    expect(topology.gatewayUrl).toBe(`http://127.0.0.1:${gatewayPort}`);
    expect(events).toContain(`gateway up at ${topology.gatewayUrl}`);
  });

  it('logs the promotion URL for the first account, and sets the session cookie without Secure over http', async () => {
    const email = `first-${randomBytes(4).toString('hex')}@example.org`;
    expect((await post('/api/auth/register', { email, password: 'local password 1' })).status).toBe(201);
    await expect.poll(() => (lines.get('identity') ?? []).find((line) => line.includes('promotionPath')), { timeout: 5_000 }).toBeDefined();
    const promotionPath = /"promotionPath":"([^"]+)"/.exec((lines.get('identity') ?? []).find((line) => line.includes('promotionPath'))!)![1]!;
    const promotion = await fetch(`${topology.gatewayUrl}${promotionPath}`);
    expect(promotion.status).toBe(200);
    const login = await post('/api/auth/login', { email, password: 'local password 1' });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().find((value) => value.startsWith('session='));
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it("lists a user's sessions with the device and the use the gateway noted in Redis (two processes, one store)", async () => {
    const email = `devices-${randomBytes(4).toString('hex')}@example.org`;
    const registered = await post('/api/auth/register', { email, password: 'local password 1' });
    const { token } = (await registered.json()) as { token: string };
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const login = await fetch(`${topology.gatewayUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': firefox }, body: JSON.stringify({ email, password: 'local password 1' }) });
    expect(login.status).toBe(200);
    type Listed = Array<{ device: string; current: boolean; lastUsedAt: number | null; address: string }>;
    const list = async () => ((await (await fetch(`${topology.gatewayUrl}/api/me/sessions`, { headers: { authorization: `Bearer ${token}` } })).json()) as { sessions: Listed }).sessions;
    // Listing is a use of the registered session, noted by the gateway without waiting: a later listing shows it.
    await expect.poll(async () => (await list())[1]?.lastUsedAt ?? null, { timeout: 5_000 }).toEqual(expect.any(Number));
    const sessions = await list();
    expect(sessions.map(({ device, current }) => ({ device, current }))).toEqual([
      { device: 'Firefox 133 on Linux', current: false },
      { device: 'node', current: true },
    ]);
    expect(sessions[0]!.lastUsedAt).toBeNull();
    expect(sessions[0]!.address).toBe('127.0.0.1');
  });

  it('restarts each service that crashes (identity, publishing and visitors, which used to stay down), logging it, and serves through them again', async () => {
    const crashed = ['identity', 'publishing', 'visitors'];
    const before = new Map(crashed.map((name) => [name, topology.processes.get(name)!.pid!]));
    for (const pid of before.values()) process.kill(pid, 'SIGKILL');
    for (const name of crashed) {
      const supervised = topology.processes.get(name)!;
      await expect.poll(() => events.find((event) => event.startsWith(`${name} exited (SIGKILL); restarting in`)), { timeout: 10_000 }).toBeDefined();
      await expect.poll(() => supervised.restarts, { timeout: 10_000 }).toBe(1);
      expect(supervised.pid).not.toBe(before.get(name));
      await expect.poll(async () => (await fetch(`${topology.instanceUrls.get(name)}/api/health`).catch(() => undefined))?.status, { timeout: 120_000, interval: 500 }).toBe(200);
    }
    const email = `after-${randomBytes(4).toString('hex')}@example.org`;
    await expect.poll(async () => (await post('/api/auth/register', { email, password: 'local password 1' })).status, { timeout: 60_000, interval: 500 }).toBe(201);
  }, 300_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@platform/testkit/servers';
import { localEnvironment, readComposeServices, startOrder, type BackendHost } from './compose-topology';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface LocalTopology {
  gatewayUrl: string;
  /** Base URL of every platform service by compose name. */
  serviceUrls: Map<string, string>;
  stop(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not healthy after ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts the platform services of docker-compose.yml as local processes with the environment
 * compose gives each, hosts mapped to loopback and the backends given as URLs. Like compose's
 * `condition: service_healthy`, a service starts once the ones it depends on answer /api/health.
 */
export async function startLocalTopology(options: {
  backendUrls: Record<BackendHost, string>;
  composeFile?: string;
  /** Variables for `${...}` in the compose file; PRINCIPAL_SECRET defaults to a fresh random one. */
  variables?: Record<string, string | undefined>;
  /** Added to every service's environment (for example LOG_LEVEL or MONGO_DATABASE). */
  extraEnvironment?: Record<string, string>;
  log?: (line: string) => void;
}): Promise<LocalTopology> {
  const variables = { PRINCIPAL_SECRET: randomBytes(32).toString('hex'), ...options.variables };
  const services = await readComposeServices(options.composeFile ?? resolve(repositoryRoot, 'docker-compose.yml'), variables);
  const ports = new Map<string, number>();
  for (const service of services) ports.set(service.name, await freePort());
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 8_000).unref();
          }),
      ),
    );
  };
  try {
    for (const level of startOrder(services)) {
      await Promise.all(
        level.map(async (service) => {
          const environment = { ...localEnvironment(service, options.backendUrls, ports), ...options.extraEnvironment };
          const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/main.ts'], {
            cwd: repositoryRoot,
            env: { PATH: process.env.PATH ?? '', ...environment },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          children.push(child);
          let output = '';
          const keep = (chunk: Buffer) => {
            output = (output + chunk.toString()).slice(-8_000);
          };
          child.stdout?.on('data', keep);
          child.stderr?.on('data', keep);
          const url = `http://127.0.0.1:${ports.get(service.name)}`;
          try {
            await waitHealthy(url, child, () => output, 60_000);
          } catch (error) {
            throw new Error(`service ${service.name} at ${url} ${(error as Error).message}`);
          }
          options.log?.(`${service.name} up at ${url}`);
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const serviceUrls = new Map([...ports].map(([name, port]) => [name, `http://127.0.0.1:${port}`]));
  const gatewayUrl = serviceUrls.get('gateway');
  if (!gatewayUrl) {
    await stop();
    throw new Error('the compose file has no gateway service');
  }
  return { gatewayUrl, serviceUrls, stop };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../libs/testkit/src/servers';
import { localEnvironment, readComposeServices, startOrder, type BackendHost, type ComposeService } from '../../platform/src/compose/compose-topology';

export interface ServiceProcesses {
  gatewayUrl: string;
  names: string[];
  /** SIGKILLs one service process and waits until it is gone. */
  kill(name: string): Promise<void>;
  /** Starts a killed service again on its port and waits for its /api/health. */
  start(name: string): Promise<void>;
  stopAll(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service ${name} exited with ${child.exitCode}; see its log`);
    try {
      if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`service ${name} at ${url} not healthy after ${timeoutMs} ms; see its log`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/**
 * The platform services of docker-compose.yml as local processes (the same environment as
 * `pnpm start:services`), each one killable and restartable on its own port. Every process
 * appends its output to `<logDir>/<service>.log`.
 */
export async function startServiceProcesses(options: {
  composeFile: string;
  repositoryRoot: string;
  backendUrls: Record<BackendHost, string>;
  logDir: string;
  extraEnvironment: Record<string, string>;
}): Promise<ServiceProcesses> {
  const services = await readComposeServices(options.composeFile, { PRINCIPAL_SECRET: randomBytes(32).toString('hex') });
  const ports = new Map<string, number>();
  for (const service of services) ports.set(service.name, await freePort());
  const urlOf = (name: string) => `http://127.0.0.1:${ports.get(name)}`;
  const running = new Map<string, ChildProcess>();
  const logs = new Map<string, WriteStream>();
  const byName = new Map(services.map((service) => [service.name, service]));

  const launch = async (service: ComposeService) => {
    const log = logs.get(service.name) ?? createWriteStream(join(options.logDir, `${service.name}.log`), { flags: 'a' });
    logs.set(service.name, log);
    const environment = { ...localEnvironment(service, options.backendUrls, ports), ...options.extraEnvironment };
    const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/main.ts'], {
      cwd: options.repositoryRoot,
      env: { PATH: process.env.PATH ?? '', ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    running.set(service.name, child);
    await waitHealthy(urlOf(service.name), child, service.name, 90_000);
  };

  const stopAll = async () => {
    await Promise.all(
      [...running.values()].map((child) => {
        const gone = exited(child);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 8_000).unref();
        return gone;
      }),
    );
    running.clear();
    for (const log of logs.values()) log.end();
  };

  try {
    for (const level of startOrder(services)) await Promise.all(level.map(launch));
  } catch (error) {
    await stopAll();
    throw error;
  }

  return {
    gatewayUrl: urlOf('gateway'),
    names: services.map((service) => service.name),
    async kill(name) {
      const child = running.get(name);
      if (!child) throw new Error(`service ${name} is not running`);
      const gone = exited(child);
      child.kill('SIGKILL');
      await gone;
      running.delete(name);
    },
    async start(name) {
      const service = byName.get(name);
      if (!service) throw new Error(`no service ${name} in the compose file`);
      await launch(service);
    },
    stopAll,
  };
}

import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@platform/testkit/servers';
import { localEnvironment, readComposeServices, startOrder, type BackendHost } from './compose-topology';
import { superviseProcess, type SupervisedProcess } from './supervised-process';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface LocalTopology {
  gatewayUrl: string;
  /** Base URL of every platform service by compose name. */
  serviceUrls: Map<string, string>;
  /** The running processes by compose name (each restarted after a crash). */
  processes: Map<string, SupervisedProcess>;
  stop(): Promise<void>;
}

/** How each service process is started: by default the TypeScript entry through tsx. */
export interface ServiceCommand {
  executable: string;
  args: string[];
  cwd: string;
}

export const sourceCommand: ServiceCommand = { executable: process.execPath, args: ['--import', 'tsx', 'platform/src/main.ts'], cwd: repositoryRoot };

/**
 * Starts the platform services of docker-compose.yml as local processes with the environment
 * compose gives each, hosts mapped to loopback and the backends given as URLs. Like compose's
 * `condition: service_healthy`, a service starts once the ones it depends on answer /api/health;
 * like its `restart: unless-stopped`, a service that crashes later is restarted. When start-up
 * fails, every process started so far is stopped before the error is thrown.
 */
export async function startLocalTopology(options: {
  backendUrls: Record<BackendHost, string>;
  composeFile?: string;
  /** Variables for `${...}` in the compose file; PRINCIPAL_SECRET defaults to a fresh random one. */
  variables?: Record<string, string | undefined>;
  /** Added to every service's environment (for example LOG_LEVEL or MONGO_DATABASE). */
  extraEnvironment?: Record<string, string>;
  /** The gateway's port (a free one when unset); the other services always get free ones. */
  gatewayPort?: number;
  command?: ServiceCommand;
  /** Every line a service prints. */
  onLine?: (service: string, line: string) => void;
  /** Start-up progress, crashes and restarts. */
  onEvent?: (service: string, message: string) => void;
}): Promise<LocalTopology> {
  const variables = { PRINCIPAL_SECRET: randomBytes(32).toString('hex'), ...options.variables };
  const services = await readComposeServices(options.composeFile ?? resolve(repositoryRoot, 'docker-compose.yml'), variables);
  const command = options.command ?? sourceCommand;
  const ports = new Map<string, number>();
  for (const service of services) ports.set(service.name, service.name === 'gateway' && options.gatewayPort !== undefined ? options.gatewayPort : await freePort());
  const processes = new Map<string, SupervisedProcess>();
  const stop = async () => void (await Promise.all([...processes.values()].map((process) => process.stop())));
  const serviceUrls = new Map([...ports].map(([name, port]) => [name, `http://127.0.0.1:${port}`]));
  const gatewayUrl = serviceUrls.get('gateway');
  if (!gatewayUrl) throw new Error('the compose file has no gateway service');
  try {
    for (const level of startOrder(services)) {
      await Promise.all(
        level.map(async (service) => {
          const environment = { ...localEnvironment(service, options.backendUrls, ports), ...options.extraEnvironment };
          const supervised = superviseProcess({
            name: service.name,
            command: command.executable,
            args: command.args,
            cwd: command.cwd,
            env: { PATH: process.env.PATH ?? '', ...environment },
            onLine: (line) => options.onLine?.(service.name, line),
            onEvent: (message) => options.onEvent?.(service.name, message),
          });
          processes.set(service.name, supervised);
          const url = serviceUrls.get(service.name)!;
          await supervised.waitHealthy(url, 60_000);
          options.onEvent?.(service.name, `up at ${url}`);
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { gatewayUrl, serviceUrls, processes, stop };
}

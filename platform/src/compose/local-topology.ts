import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@platform/testkit/servers';
import { localEnvironment, readComposeServices, startOrder, type BackendHost } from './compose-topology';
import { startLoadBalancer, type BalancedService } from './load-balancer';
import { metricsPorts } from './metrics-ports';
import { superviseProcess, type SupervisedProcess } from './supervised-process';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * How long a service may take to answer /api/health after it was spawned. A few seconds when the
 * machine is idle, but six processes loading the platform's sources at once on a loaded 2-core
 * machine took just over a minute; one that exits is reported at once, whatever this says.
 */
const SERVICE_START_TIMEOUT_MS = 180_000;

export interface LocalTopology {
  gatewayUrl: string;
  /** Base URL of every platform service by compose name (its load balancer's when it has replicas). */
  serviceUrls: Map<string, string>;
  /** Base URL of every process: the compose name, or `name-1`, `name-2`, ... for replicas. */
  instanceUrls: Map<string, string>;
  /** The running processes by instance name (each restarted after a crash). */
  processes: Map<string, SupervisedProcess>;
  /** Each process's `GET /metrics` address, when `metricsPort` was given. */
  metricsTargets: MetricsTarget[];
  /** The REDIS_KEY_PREFIX every process uses ('' for none), for a test that reads or writes their keys. */
  redisKeyPrefix: string;
  stop(): Promise<void>;
}

/** Where Prometheus scrapes one process of the topology. */
export interface MetricsTarget {
  /** The compose service (`data`). */
  service: string;
  /** The process (`data`, or `data-1`, `data-2`, ... for replicas). */
  instance: string;
  url: string;
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
  /**
   * Every process's NATS_NAMESPACE ('' for none). Unset: a fresh one, so topologies sharing a NATS
   * server (test files running in parallel) never take each other's events from a shared durable.
   */
  natsNamespace?: string;
  /** Every process's REDIS_KEY_PREFIX ('' for none). Unset: a fresh one, for the same reason (sessions, rate-limit counters, locks). */
  redisKeyPrefix?: string;
  /** Added to every service's environment (for example LOG_LEVEL or MONGO_DATABASE). */
  extraEnvironment?: Record<string, string>;
  /** The gateway's port (a free one when unset or 0); the other services always get free ones. */
  gatewayPort?: number;
  /**
   * Processes per service (1 when unset), like `docker compose up --scale data=2`: a service with
   * more gets nginx in front (Debian's `nginx`) on the port the others and the caller use.
   */
  replicas?: Record<string, number>;
  /**
   * METRICS_PORT of the first process, the next port for each further one (compose file order,
   * replicas included), or 0 for a free port each (metricsPorts); unset: the compose variables'
   * METRICS_PORT, which more than one process cannot share on one host.
   */
  metricsPort?: number;
  command?: ServiceCommand;
  /** Every line a service prints. */
  onLine?: (service: string, line: string) => void;
  /** Start-up progress, crashes and restarts. */
  onEvent?: (service: string, message: string) => void;
}): Promise<LocalTopology> {
  const variables: Record<string, string | undefined> = { PRINCIPAL_SECRET: randomBytes(32).toString('hex'), ...options.variables };
  const services = await readComposeServices(options.composeFile ?? resolve(repositoryRoot, 'docker-compose.yml'), variables);
  const command = options.command ?? sourceCommand;
  const ports = new Map<string, number>();
  for (const service of services) ports.set(service.name, (service.name === 'gateway' && options.gatewayPort) || (await freePort()));
  // Each replica listens on its own port; the service's port above becomes the load balancer's.
  const instances = new Map<string, Array<{ name: string; port: number }>>();
  for (const service of services) {
    const count = options.replicas?.[service.name] ?? 1;
    const names = count === 1 ? [service.name] : Array.from({ length: count }, (_, index) => `${service.name}-${index + 1}`);
    instances.set(service.name, await Promise.all(names.map(async (name) => ({ name, port: count === 1 ? ports.get(service.name)! : await freePort() }))));
  }
  const serviceOfInstance = new Map([...instances].flatMap(([service, replicas]) => replicas.map(({ name }) => [name, service] as const)));
  const metricsPortOf = options.metricsPort === undefined ? new Map<string, number>() : await metricsPorts([...serviceOfInstance.keys()], options.metricsPort, freePort);
  const metricsTargets = [...metricsPortOf].map(([instance, port]) => ({ service: serviceOfInstance.get(instance)!, instance, url: `http://127.0.0.1:${port}/metrics` }));
  const busNamespace = options.natsNamespace ?? `topology_${randomBytes(6).toString('hex')}`;
  const redisKeyPrefix = options.redisKeyPrefix ?? `topology_${randomBytes(6).toString('hex')}:`;
  const processes = new Map<string, SupervisedProcess>();
  const balanced: BalancedService[] = [...instances].filter(([, replicas]) => replicas.length > 1).map(([name, replicas]) => ({ name, port: ports.get(name)!, replicaPorts: replicas.map((replica) => replica.port) }));
  const loadBalancer = balanced.length
    ? await startLoadBalancer({ services: balanced, onLine: (line) => options.onLine?.('load-balancer', line), onEvent: (message) => options.onEvent?.('load-balancer', message) })
    : undefined;
  const stop = async () => {
    await Promise.all([...processes.values()].map((process) => process.stop()));
    await loadBalancer?.stop();
  };
  const serviceUrls = new Map([...ports].map(([name, port]) => [name, `http://127.0.0.1:${port}`]));
  const instanceUrls = new Map([...instances.values()].flat().map(({ name, port }) => [name, `http://127.0.0.1:${port}`]));
  const gatewayUrl = serviceUrls.get('gateway');
  if (!gatewayUrl) throw new Error('the compose file has no gateway service');
  try {
    for (const level of startOrder(services)) {
      await Promise.all(
        level.flatMap((service) =>
          instances.get(service.name)!.map(async (instance) => {
            const metricsPort = metricsPortOf.get(instance.name);
            const environment = {
              ...localEnvironment(service, options.backendUrls, ports),
              PORT: String(instance.port),
              ...(metricsPort === undefined ? {} : { METRICS_PORT: String(metricsPort) }),
              NATS_NAMESPACE: busNamespace,
              REDIS_KEY_PREFIX: redisKeyPrefix,
              // Links in mails (invitations, password resets) lead to the gateway, where people open the platform, not to the process that writes them.
              PUBLIC_URL: variables.PUBLIC_URL || gatewayUrl,
              // Compose trusts its load balancer's hop; a lone local gateway has none in front, and trusting one would let clients forge their address.
              ...(service.name === 'gateway' && !variables.TRUST_PROXY && !balanced.some((entry) => entry.name === 'gateway') ? { TRUST_PROXY: 'false' } : {}),
              ...options.extraEnvironment,
            };
            const supervised = superviseProcess({
              name: instance.name,
              command: command.executable,
              args: command.args,
              cwd: command.cwd,
              env: { PATH: process.env.PATH ?? '', ...environment },
              onLine: (line) => options.onLine?.(instance.name, line),
              onEvent: (message) => options.onEvent?.(instance.name, message),
            });
            processes.set(instance.name, supervised);
            const url = instanceUrls.get(instance.name)!;
            await supervised.waitHealthy(url, SERVICE_START_TIMEOUT_MS);
            options.onEvent?.(instance.name, `up at ${url}`);
          }),
        ),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { gatewayUrl, serviceUrls, instanceUrls, metricsTargets, processes, redisKeyPrefix, stop };
}

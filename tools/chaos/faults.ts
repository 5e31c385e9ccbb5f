import type { Backends } from './backends';
import type { ServiceProcesses } from './services';

/** One thing to kill with SIGKILL and bring back. */
export interface Fault {
  name: string;
  kill(): Promise<void>;
  restart(): Promise<void>;
}

/** The faults in the order they are injected: the three backends, then three services. */
export function faultsFor(backends: Backends, services: ServiceProcesses): Fault[] {
  const backend = (name: string, server: Backends['nats']): Fault => ({
    name,
    kill: () => server.stop({ kill: true }),
    restart: () => server.restart(),
  });
  const service = (name: string): Fault => ({
    name: `${name} service`,
    kill: () => services.kill(name),
    restart: () => services.start(name),
  });
  return [
    backend('NATS', backends.nats),
    backend('Redis', backends.redis),
    backend('MongoDB-compatible server', backends.mongo),
    service('audit'),
    service('actions'),
    service('data'),
  ];
}

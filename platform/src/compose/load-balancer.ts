import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { superviseProcess, type SupervisedProcess } from './supervised-process';

/** One balanced service: the loopback port nginx listens on and the replicas' ports behind it. */
export interface BalancedService {
  name: string;
  port: number;
  replicaPorts: number[];
}

/**
 * nginx's configuration for the local topology: one server per balanced service on loopback,
 * round robin over its replicas. Streams (realtime SSE) pass unbuffered and may stay open; the
 * client's address and the request id travel on like behind a production load balancer (a gateway
 * behind it trusts this one hop: TRUST_PROXY=1).
 */
export function loadBalancerConfig(services: BalancedService[], directory: string): string {
  const blocks = services.map(
    ({ name, port, replicaPorts }) => `
  upstream ${name} {
${replicaPorts.map((replica) => `    server 127.0.0.1:${replica} max_fails=0;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://${name};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
    }
  }`,
  );
  return `pid ${join(directory, 'nginx.pid')};
error_log stderr warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(directory, 'body')};
  proxy_temp_path ${join(directory, 'proxy')};
  client_max_body_size 16m;
${blocks.join('\n')}
}
`;
}

/** Starts nginx (Debian's `nginx`, in the foreground, supervised like the services) in front of `services`. */
export async function startLoadBalancer(options: { services: BalancedService[]; onLine?: (line: string) => void; onEvent?: (message: string) => void }): Promise<{ process: SupervisedProcess; stop(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'platform-nginx-'));
  const configFile = join(directory, 'nginx.conf');
  await writeFile(configFile, loadBalancerConfig(options.services, directory));
  const nginx = superviseProcess({
    name: 'load-balancer',
    command: 'nginx',
    args: ['-e', 'stderr', '-p', directory, '-c', configFile, '-g', 'daemon off;'],
    cwd: directory,
    env: { PATH: `${process.env.PATH ?? ''}:/usr/sbin` },
    onLine: (line) => options.onLine?.(line),
    onEvent: (message) => options.onEvent?.(message),
  });
  return {
    process: nginx,
    stop: async () => {
      await nginx.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

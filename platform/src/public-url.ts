import type { PlatformConfig } from './config';

/** The URL a person on this machine uses for an address the process listens at (every interface: loopback). */
export function listenUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * Where people open the platform: PUBLIC_URL when set (behind a proxy, or a process without the
 * gateway), else http://HOST:PORT with the port actually listened on (PORT=0 picks one).
 */
export function publicUrl(config: Pick<PlatformConfig, 'PUBLIC_URL' | 'HOST' | 'PORT'>, listenedPort: number = config.PORT): string {
  return config.PUBLIC_URL ?? listenUrl(config.HOST, listenedPort);
}

import { readComposeFile, type ComposeFile } from './compose-file';

/** The backends the compose file runs as third-party images, which a local run supplies itself. */
export const backendHosts = ['mongo', 'nats', 'redis'] as const;
export type BackendHost = (typeof backendHosts)[number];

/** One platform container of the compose file, as a local process would need it. */
export interface ComposeService {
  name: string;
  /** Its environment, with `${VAR:-default}` and `${VAR:?message}` already resolved. */
  environment: Record<string, string>;
  dependsOn: string[];
}

type RawService = ComposeFile['services'][string];

/**
 * Resolves compose's `${VAR}`, `${VAR:-default}`, `${VAR-default}` and `${VAR:?message}` from
 * `variables`; a default may hold variables of its own, resolved only when it is used, as compose
 * does (`${PUBLIC_URL:-http://localhost:${PORT:-3000}}`).
 */
export function interpolate(value: string, variables: Record<string, string | undefined>): string {
  let resolved = '';
  let index = 0;
  for (let start = value.indexOf('${'); start !== -1; start = value.indexOf('${', index)) {
    const end = closingBrace(value, start + 2);
    resolved += value.slice(index, start) + resolveVariable(value.slice(start + 2, end), variables);
    index = end + 1;
  }
  return resolved + value.slice(index);
}

/** Where the `${` opened before `from` closes, counting the ones a default opens inside it. */
function closingBrace(value: string, from: number): number {
  let depth = 1;
  for (let index = from; index < value.length; index += 1) {
    if (value.startsWith('${', index)) {
      depth += 1;
      index += 1;
    } else if (value[index] === '}' && --depth === 0) return index;
  }
  throw new Error(`compose variable without its closing brace: ${value}`);
}

function resolveVariable(expression: string, variables: Record<string, string | undefined>): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([\s\S]*))?$/.exec(expression);
  if (!match) throw new Error(`compose variable not understood: \${${expression}}`);
  const [, name = '', operator, argument = ''] = match;
  const current = variables[name];
  const isSet = operator?.startsWith(':') ? current !== undefined && current !== '' : current !== undefined;
  if (isSet) return current as string;
  if (operator?.endsWith('?')) throw new Error(`compose variable ${name}: ${argument || 'required'}`);
  return operator?.endsWith('-') ? interpolate(argument, variables) : '';
}

function environmentOf(raw: RawService, variables: Record<string, string | undefined>): Record<string, string> {
  const entries = Array.isArray(raw.environment)
    ? raw.environment.map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)] as const;
      })
    : Object.entries(raw.environment ?? {}).map(([key, value]) => [key, value === null ? '' : String(value)] as const);
  return Object.fromEntries(entries.map(([key, value]) => [key, interpolate(value, variables)]));
}

/** The image every platform service of the compose file runs (the Dockerfile's). */
export const platformImage = 'platform:local';

/**
 * The platform services of a compose file: those running the platform image (not the backends,
 * nor the load balancer, which a local run with replicas starts itself: load-balancer.ts).
 */
export async function readComposeServices(composeFile: string, variables: Record<string, string | undefined>): Promise<ComposeService[]> {
  const document = await readComposeFile(composeFile);
  return Object.entries(document.services)
    .filter(([, raw]) => raw.image === platformImage)
    .map(([name, raw]) => ({
      name,
      environment: environmentOf(raw, variables),
      dependsOn: Array.isArray(raw.depends_on) ? raw.depends_on : Object.keys(raw.depends_on ?? {}),
    }));
}

/**
 * Rewrites a container's environment for a local process: URLs that name a backend host become
 * the local backend's URL, URLs that name a platform service point at its loopback port, and the
 * process listens on its own port, and its metrics listener, on loopback.
 */
export function localEnvironment(
  service: ComposeService,
  backendUrls: Record<BackendHost, string>,
  servicePorts: ReadonlyMap<string, number>,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(service.environment)) {
    const host = /^[a-z]+:\/\/([^/:]+)/.exec(value)?.[1];
    if (host && (backendHosts as readonly string[]).includes(host)) environment[key] = backendUrls[host as BackendHost];
    else if (host && servicePorts.has(host)) environment[key] = value.replace(/\/\/[^/:]+:\d+/, `//127.0.0.1:${servicePorts.get(host)}`);
    else environment[key] = value;
  }
  // Loopback, not the compose file's 0.0.0.0 (every interface of a container's own network).
  environment.HOST = '127.0.0.1';
  environment.METRICS_HOST = '127.0.0.1';
  environment.PORT = String(servicePorts.get(service.name));
  return environment;
}

/** Services grouped so that each group depends only on earlier groups (compose's start order). */
export function startOrder(services: ComposeService[]): ComposeService[][] {
  const platformNames = new Set(services.map((s) => s.name));
  const started = new Set<string>();
  const levels: ComposeService[][] = [];
  let remaining = services;
  while (remaining.length) {
    const ready = remaining.filter((s) => s.dependsOn.every((d) => !platformNames.has(d) || started.has(d)));
    if (!ready.length) throw new Error(`depends_on cycle among ${remaining.map((s) => s.name).join(', ')}`);
    levels.push(ready);
    for (const s of ready) started.add(s.name);
    remaining = remaining.filter((s) => !started.has(s.name));
  }
  return levels;
}

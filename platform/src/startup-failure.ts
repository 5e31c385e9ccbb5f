import { isAbsolute, relative, resolve } from 'node:path';
import { ConfigError } from '@platform/kit';
import { CorruptLogError } from '@platform/storage';

/** A start-up failure whose cause is already told in its message, in one line that names what to change. */
export class StartupFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupFailure';
  }
}

/** What start-up needs to know to name a cause: the variables a person would change. */
export interface StartupSettings {
  HOST: string;
  DATA_DIR: string;
}

type SystemError = NodeJS.ErrnoException & { port?: number; hostname?: string };

function isSystemError(error: unknown): error is SystemError {
  return error instanceof Error && typeof (error as SystemError).code === 'string';
}

/** A listening socket of the process and the variables that choose its port and address. */
export interface Listener {
  /** How a message names its port: `port`, `metrics port`. */
  name: string;
  portVariable: string;
  hostVariable: string;
  host: string;
}

/** The public listener: PORT on HOST. */
function publicListener(settings: StartupSettings): Listener {
  return { name: 'port', portVariable: 'PORT', hostVariable: 'HOST', host: settings.HOST };
}

/**
 * A listen socket's refusal (or the failed lookup of its address), told by the variables that
 * choose it; undefined for any other error.
 */
export function listenFailure(error: unknown, listener: Listener): string | undefined {
  if (!isSystemError(error)) return undefined;
  const { name, portVariable, host } = listener;
  // Listening on a name first looks it up.
  if (error.syscall === 'getaddrinfo' && error.hostname === host) return hostFailure(listener);
  if (error.syscall !== 'listen') return undefined;
  switch (error.code) {
    case 'EADDRINUSE':
      return `${name} ${error.port} is in use: set ${portVariable} (${portVariable}=0 picks a free one)`;
    case 'EACCES':
      return `${name} ${error.port} needs privileges this process does not have: set ${portVariable} to 1024 or above`;
    case 'EADDRNOTAVAIL':
      return hostFailure(listener);
    default:
      return undefined;
  }
}

function hostFailure({ hostVariable, host }: Listener): string {
  return `${hostVariable} ${host} is not an address of this machine: set ${hostVariable} (127.0.0.1, or 0.0.0.0 for every interface)`;
}

/** Files under DATA_DIR that cannot be created or written. */
function dataDirectoryFailure(error: SystemError, settings: StartupSettings): string | undefined {
  if (!error.path) return undefined;
  const inside = relative(resolve(settings.DATA_DIR), resolve(error.path));
  if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
  if (!['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'ENOSPC'].includes(error.code!)) return undefined;
  return `the data directory ${settings.DATA_DIR} cannot be written (${error.code} on ${error.path}): set DATA_DIR to a writable directory`;
}

/**
 * The one line that tells why start-up stopped and what to change, or undefined when the cause
 * is not one start-up knows (a bug: the caller prints the stack then).
 */
export function describeStartupFailure(error: unknown, settings: StartupSettings): string | undefined {
  if (error instanceof ConfigError || error instanceof StartupFailure) return error.message;
  // Damage, not a bug: opening would drop the valid lines after it, so the store stays closed.
  if (error instanceof CorruptLogError) return `${error.message}; restore a backup (start with DATA_DIR set to its directory)`;
  if (!isSystemError(error)) return undefined;
  if (error.code === 'DATA_DIRECTORY_IN_USE') return `${error.message} (another pnpm start?): stop it, or set DATA_DIR to another directory`;
  return listenFailure(error, publicListener(settings)) ?? dataDirectoryFailure(error, settings);
}

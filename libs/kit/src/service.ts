import type { BackendServiceName } from '@platform/contracts';
import type { EventBus } from '@platform/bus';
import type { KeyValue } from '@platform/kv';
import type { DocumentStore } from '@platform/storage';
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { AccessChanges } from './access-changes';
import type { Mailer } from './mailer';
import type { ProjectAccess } from './project-access';

/** Milliseconds since the epoch; injected so tests can move time without sleeping. */
export type Clock = () => number;

/** What every service gets from the process that hosts it: the same adapter instances for all. */
export interface ServiceContext {
  /** Development mode (NODE_ENV is not `production`). */
  dev: boolean;
  logger: Logger;
  store: DocumentStore;
  bus: EventBus;
  kv: KeyValue;
  mailer: Mailer;
  clock: Clock;
  /** Callers' standing in projects, one cache for every hosted service. */
  projectAccess: ProjectAccess;
  /** Announces access changes to every process, and (once following) hears theirs. */
  accessChanges: AccessChanges;
  /**
   * Where people open the platform, e.g. http://127.0.0.1:3000 (PUBLIC_URL, else the address this
   * process listens at; final once it listens): for links written to the log or sent in mail.
   */
  publicUrl(): string;
}

/**
 * A service: a Fastify plugin with its routes (it never listens) and the consumers and jobs it
 * starts. The process entry decides where it runs: in-process behind the gateway, or alone.
 */
export interface ServiceDefinition {
  name: BackendServiceName;
  routes: FastifyPluginAsync<ServiceContext>;
  /** Starts event consumers and background jobs; answers a function that stops them. */
  start?: (context: ServiceContext) => Promise<() => Promise<void>>;
}

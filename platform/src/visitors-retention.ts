import { dataDeps } from '@platform/documents';
import { ConfigError, createLogger, createLogMailer, sharedProjectAccess, type Clock, type Logger, type ServiceContext } from '@platform/kit';
import { loadVisitorsConfig, visitorsDeps, type RetentionResult } from '@platform/visitors';
import { pathToFileURL } from 'node:url';
import { closeAdapters, openAdapters } from './adapters';
import { deferringBus } from './deferring-bus';
import { loadPlatformConfig, type PlatformConfig } from './config';
import { publicUrl } from './public-url';

/**
 * Runs the visitor retention job once, now, on the backends the environment names: the same job
 * the nightly schedule runs, without waiting for its lock (an operator asked for it). With the
 * embedded store the platform must be stopped first, since only one process may open its files.
 *
 * The erasure events reach the platform's consumers (audit trail, actions, sync) either way: on
 * NATS they are published now; on the in-process bus, which no consumer shares with this process,
 * they stay in the erased documents' outboxes and the platform publishes them at its next start.
 */
export async function runVisitorsRetention(config: PlatformConfig, options: { clock?: Clock; logger?: Logger } = {}): Promise<RetentionResult> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'visitors-retention' });
  const adapters = await openAdapters(config, { withStore: true, logger });
  const clock = options.clock ?? Date.now;
  const deferred = adapters.bus.kind === 'in-process';
  const bus = deferred ? deferringBus(adapters.bus) : adapters.bus;
  const context: ServiceContext = { dev: config.dev, logger, clock, mailer: createLogMailer(logger), ...adapters, bus, ...sharedProjectAccess({ ...adapters, clock, logger }), publicUrl: () => publicUrl(config) };
  try {
    const result = await visitorsDeps(context, loadVisitorsConfig()).retention.run();
    if (deferred) logger.info({ ...result }, 'erasure events wait in the outbox; the platform publishes them to the audit trail at its next start');
    // Erasure events the bus refused for a moment go out before the process ends.
    else await dataDeps(context).drainer.sweep(0);
    return result;
  } finally {
    await closeAdapters(adapters);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const result = await runVisitorsRetention(loadPlatformConfig());
    console.log(JSON.stringify(result));
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}

import { dataDeps } from '@platform/data';
import { ConfigError, createLogger, createLogMailer, sharedProjectAccess, type Clock, type Logger, type ServiceContext } from '@platform/kit';
import { loadVisitorsConfig, visitorsDeps, type RetentionResult } from '@platform/visitors';
import { pathToFileURL } from 'node:url';
import { closeAdapters, openAdapters } from './adapters';
import { loadPlatformConfig, type PlatformConfig } from './config';

/**
 * Runs the visitor retention job once, now, on the backends the environment names: the same job
 * the nightly schedule runs, without waiting for its lock (an operator asked for it). With the
 * embedded store the platform must be stopped first, since only one process may open its files.
 */
export async function runVisitorsRetention(config: PlatformConfig, options: { clock?: Clock; logger?: Logger } = {}): Promise<RetentionResult> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'visitors-retention' });
  const adapters = await openAdapters(config, { withStore: true });
  const clock = options.clock ?? Date.now;
  const context: ServiceContext = { dev: config.dev, logger, clock, mailer: createLogMailer(logger), ...adapters, ...sharedProjectAccess({ ...adapters, clock, logger }) };
  try {
    const result = await visitorsDeps(context, loadVisitorsConfig()).retention.run();
    // Erasure events that could not be published yet go out before the process ends.
    await dataDeps(context).drainer.sweep(0);
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

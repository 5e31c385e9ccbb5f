import './v8-tuning';
import { loadPlatformConfig, type PlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { describeStartupFailure, type StartupSettings } from './startup-failure';

/** How long a shutdown may take, besides the bus drain's own limit, before the process gives up waiting and exits 1. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Stops start-up with the cause in one line; a cause start-up does not know (a bug) keeps its stack. */
function failStartup(error: unknown, settings: StartupSettings): never {
  const line = describeStartupFailure(error, settings);
  console.error(line ? `start-up failed: ${line}` : error);
  process.exit(1);
}

/**
 * Ctrl-C or a stop from the supervisor: close cleanly, then exit 0. A signal during start-up waits
 * for it to finish (a failed start-up is reported by main); a second signal is ignored while closing.
 */
function exitOnSignals(starting: Promise<RunningPlatform>, graceMs: number): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    setTimeout(() => {
      console.error(`shutdown did not finish within ${graceMs / 1000} s`);
      process.exit(1);
    }, graceMs).unref();
    starting.then(
      (platform) => {
        platform.app.log.info({ signal }, 'shutting down');
        platform.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error('shutdown failed:', error);
            process.exit(1);
          },
        );
      },
      () => undefined,
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

/** Process entry: `pnpm start` (all services, embedded storage) or one container of the compose file. */
async function main(): Promise<void> {
  let config: PlatformConfig;
  try {
    config = loadPlatformConfig();
  } catch (error) {
    failStartup(error, { HOST: process.env.HOST ?? '', DATA_DIR: process.env.DATA_DIR ?? '' });
  }
  const starting = startPlatform(config);
  exitOnSignals(starting, SHUTDOWN_GRACE_MS + config.SHUTDOWN_DRAIN_MS);
  try {
    await starting;
  } catch (error) {
    failStartup(error, config);
  }
}

void main();

import { ConfigError } from '@platform/kit';
import { loadPlatformConfig } from './config';
import { startPlatform } from './host';

/** Process entry: `pnpm start` (all services, embedded storage) or one container of the compose file. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadPlatformConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const platform = await startPlatform(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    platform.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void platform.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { join } from 'node:path';
import type { LogReporter } from '@platform/storage/log-files';
import { createEmbeddedKeyValue } from './embedded';
import { createMemoryKeyValue } from './memory';
import type { KeyValue } from './port';
import { createRedisKeyValue } from './redis';

/**
 * Redis when a URL is configured; otherwise the embedded store under `dataDir/kv` when a data
 * directory is given (its keys outlive a restart, and its log reports trouble to `logger`), else
 * the in-process memory store.
 */
export async function openKeyValue(options: { redisUrl?: string; keyPrefix?: string | undefined; dataDir?: string; logger?: LogReporter }): Promise<KeyValue> {
  if (options.redisUrl) return createRedisKeyValue({ url: options.redisUrl, ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}) });
  if (options.dataDir !== undefined) return createEmbeddedKeyValue({ directory: join(options.dataDir, 'kv'), logger: options.logger });
  return createMemoryKeyValue();
}

import { createMemoryKeyValue } from './memory';
import type { KeyValue } from './port';
import { createRedisKeyValue } from './redis';

/** Redis when a URL is configured, otherwise the in-process memory store. */
export async function openKeyValue(options: { redisUrl?: string; keyPrefix?: string }): Promise<KeyValue> {
  if (options.redisUrl) return createRedisKeyValue({ url: options.redisUrl, ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}) });
  return createMemoryKeyValue();
}

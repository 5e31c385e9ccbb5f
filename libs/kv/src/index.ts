export type { IncrementOptions, KeyValue, SetOptions } from './port';
export { createEmbeddedKeyValue, type EmbeddedKeyValueOptions } from './embedded';
export { createMemoryKeyValue } from './memory';
export { createRedisKeyValue, REDIS_KEY_PREFIX_PATTERN, type RedisKeyValueOptions } from './redis';
export { openKeyValue } from './open-key-value';

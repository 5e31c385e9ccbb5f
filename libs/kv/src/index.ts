export type { IncrementOptions, KeyValue, SetOptions } from './port';
export { createMemoryKeyValue } from './memory';
export { createRedisKeyValue, type RedisKeyValueOptions } from './redis';
export { openKeyValue } from './open-key-value';

import type { BackendKind } from '@platform/testkit';

/**
 * The variables that put a platform process on the shared test backends, its data kept apart from
 * every other test file's by `tag`: its own MongoDB database, NATS namespace and Redis key prefix.
 */
export function sharedBackendsEnvironment(urls: Record<BackendKind, string>, tag: string): Record<string, string> {
  return {
    MONGO_URL: urls.mongo,
    MONGO_DATABASE: tag,
    NATS_URL: urls.nats,
    NATS_NAMESPACE: tag,
    REDIS_URL: urls.redis,
    REDIS_KEY_PREFIX: `${tag}:`,
  };
}

import { describe, expect, it } from 'vitest';
import { promoteOwnerCommand } from './owner-command';

describe('the promote-owner command pnpm start:services prints', () => {
  it('names the database and Redis the run uses', () => {
    expect(promoteOwnerCommand({ mongoUrl: 'mongodb://127.0.0.1:27017/', mongoDatabase: 'platform', redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: '' })).toBe(
      'MONGO_URL=mongodb://127.0.0.1:27017/ MONGO_DATABASE=platform REDIS_URL=redis://127.0.0.1:6379 pnpm --filter identity promote-owner <email>',
    );
  });

  it('carries the Redis key prefix, where the sessions it refreshes are, and quotes what the shell would split', () => {
    expect(promoteOwnerCommand({ mongoUrl: 'mongodb://127.0.0.1:27017/?replicaSet=rs0&w=1', mongoDatabase: 'platform', redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: 'staging:' })).toBe(
      "MONGO_URL='mongodb://127.0.0.1:27017/?replicaSet=rs0&w=1' MONGO_DATABASE=platform REDIS_URL=redis://127.0.0.1:6379 REDIS_KEY_PREFIX=staging: pnpm --filter identity promote-owner <email>",
    );
  });
});

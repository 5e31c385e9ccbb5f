import { describe, expect, it } from 'vitest';
import { missingPrograms } from './missing-programs';

const nothingInstalled = { executable: () => false, mongoCompatBuilt: false };

describe('programs pnpm start:services needs', () => {
  it('names each missing program with how to get it or the variable that replaces it', () => {
    expect(missingPrograms({}, nothingInstalled)).toEqual([
      { program: 'nats-server', remedy: expect.stringMatching(/apt-get install nats-server, or set NATS_URL/) },
      { program: 'redis-server', remedy: expect.stringMatching(/apt-get install redis-server, or set REDIS_URL/) },
      { program: 'go', remedy: expect.stringMatching(/apt-get install golang-go .*or set MONGO_URL/) },
    ]);
  });

  it('needs nothing for a backend the environment names, nor Go once the MongoDB-compatible server is built', () => {
    expect(missingPrograms({ NATS_URL: 'nats://n:4222', REDIS_URL: 'redis://r:6379' }, { executable: () => false, mongoCompatBuilt: true })).toEqual([]);
    expect(missingPrograms({}, { executable: () => true, mongoCompatBuilt: false })).toEqual([]);
  });
});

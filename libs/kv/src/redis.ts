import { Redis } from 'ioredis';
import { inTextOrder } from './live-with-prefix';
import type { KeyValue, SetOptions } from './port';

export interface RedisKeyValueOptions {
  url: string;
  /** Prepended to every key, so several deployments can share one Redis. */
  keyPrefix?: string;
}

/** A key prefix (REDIS_KEY_PREFIX): printable, no spaces or glob characters, so SCAN matches it literally. */
export const REDIS_KEY_PREFIX_PATTERN = /^[A-Za-z0-9_:.-]{1,64}$/;

/** Escapes Redis glob characters so a prefix matches literally in SCAN. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}

/**
 * Maps of fields are Redis hashes whose values carry their field's expiry (`<epoch ms>|<value>`),
 * since Redis 7.0 expires only whole keys: the hash's own expiry follows its longest-lived field,
 * and each script below treats an expired field as absent and removes it, atomically.
 */
const EXPIRY_OF = `
local function expiryOf(stored) return tonumber(string.sub(stored, 1, string.find(stored, '|', 1, true) - 1)) end`;
const SET_FIELD = `${EXPIRY_OF}
local current = redis.call('HGET', KEYS[1], ARGV[1])
local live = current and expiryOf(current) > tonumber(ARGV[3])
if ARGV[5] == '1' and not live then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1`;
const LIVE_FIELDS = `${EXPIRY_OF}
local found = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if expiryOf(all[i + 1]) > tonumber(ARGV[1]) then
    table.insert(found, all[i])
    table.insert(found, string.sub(all[i + 1], string.find(all[i + 1], '|', 1, true) + 1))
  else
    redis.call('HDEL', KEYS[1], all[i])
  end
end
return found`;
const DELETE_FIELD = `${EXPIRY_OF}
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if expiryOf(current) > tonumber(ARGV[2]) then return 1 end
return 0`;

/** SET (with PX when given) only while the key holds ARGV[1]. */
const SET_IF_VALUE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], unpack(ARGV, 3))
return 1`;

/** How long a command may go unanswered before it fails. */
const COMMAND_TIMEOUT_MS = 2_000;

const INCREMENT_IF_PRESENT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('INCRBY', KEYS[1], ARGV[1])`;

/**
 * The Redis KeyValue on ioredis. Commands fail fast while Redis is unreachable (no offline
 * queue, one attempt) so callers can fall back or answer 503 instead of hanging; the client
 * keeps reconnecting in the background.
 */
export async function createRedisKeyValue(options: RedisKeyValueOptions): Promise<KeyValue> {
  const prefix = options.keyPrefix ?? '';
  const client = new Redis(options.url, {
    lazyConnect: true,
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // A Redis that keeps the connection and stops answering (a failover that cut it off) would hold
    // every command until TCP gives up, many minutes: after two seconds it fails, and callers fall
    // back (the gateway's cached sessions) or answer 503 as when Redis is down. Not much less: a
    // process starved of CPU for a moment must not take its own late answers for an outage.
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Connection errors surface through failing commands and ping; the event itself is expected.
  client.on('error', () => undefined);
  await client.connect().catch(() => undefined);

  return {
    kind: 'redis',
    // The command's own promise: every signed-in request reads its session here, and an async wrapper would add a promise and a microtask to each.
    get: (key) => client.get(prefix + key),
    async set(key: string, value: string, setOptions: SetOptions = {}) {
      const ttl = setOptions.ttlMs !== undefined ? ['PX', Math.max(1, Math.round(setOptions.ttlMs))] : [];
      if (setOptions.onlyIfValue !== undefined) return (await client.eval(SET_IF_VALUE, 1, prefix + key, setOptions.onlyIfValue, value, ...ttl)) === 1;
      const condition = setOptions.onlyIfAbsent ? ['NX'] : setOptions.onlyIfPresent ? ['XX'] : [];
      const answer = await client.call('SET', prefix + key, value, ...ttl, ...condition);
      return answer === 'OK';
    },
    async increment(key, incrementOptions) {
      if (incrementOptions.onlyIfPresent) return Number(await client.eval(INCREMENT_IF_PRESENT, 1, prefix + key, incrementOptions.by ?? 1));
      // SET NX PX creates the window with its expiry; INCRBY keeps the expiry of an existing key.
      const results = await client
        .multi()
        .set(prefix + key, '0', 'PX', Math.max(1, Math.round(incrementOptions.ttlMs)), 'NX')
        .incrby(prefix + key, incrementOptions.by ?? 1)
        .exec();
      const failed = results?.find(([error]) => error)?.[0];
      if (!results || failed) throw failed ?? new Error('increment was not executed');
      return Number(results[1]?.[1]);
    },
    async delete(key) {
      return (await client.del(prefix + key)) > 0;
    },
    async scan(keyPrefix) {
      const keys = new Set<string>();
      let cursor = '0';
      do {
        const [next, batch] = await client.scan(cursor, 'MATCH', `${escapeGlob(prefix + keyPrefix)}*`, 'COUNT', 1000);
        for (const key of batch) keys.add(key);
        cursor = next;
      } while (cursor !== '0');
      const sorted = [...keys].sort();
      const found: Array<{ key: string; value: string }> = [];
      for (let start = 0; start < sorted.length; start += 500) {
        const chunk = sorted.slice(start, start + 500);
        const values = await client.mget(...chunk);
        chunk.forEach((key, index) => {
          const value = values[index];
          // A key that expired between SCAN and MGET is simply gone.
          if (value !== null && value !== undefined) found.push({ key: key.slice(prefix.length), value });
        });
      }
      return found;
    },
    async setField(key, field, value, fieldOptions) {
      const now = Date.now();
      const ttlMs = Math.max(1, Math.round(fieldOptions.ttlMs));
      const written = await client.eval(SET_FIELD, 1, prefix + key, field, `${now + ttlMs}|${value}`, now, ttlMs, fieldOptions.onlyIfPresent ? '1' : '0');
      return written === 1;
    },
    async fields(key) {
      const flat = (await client.eval(LIVE_FIELDS, 1, prefix + key, Date.now())) as string[];
      const found: Array<{ field: string; value: string }> = [];
      for (let index = 0; index < flat.length; index += 2) found.push({ field: flat[index]!, value: flat[index + 1]! });
      return found.sort((a, b) => inTextOrder(a.field, b.field));
    },
    async deleteField(key, field) {
      return (await client.eval(DELETE_FIELD, 1, prefix + key, field, Date.now())) === 1;
    },
    async ping() {
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

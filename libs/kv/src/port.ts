/**
 * The KeyValue port: string keys to string values with an optional time to live, a prefix scan,
 * and small maps of fields under one key (each field with a time to live of its own). Redis (ioredis), embedded (a log under a data directory) and memory adapters implement
 * it; `contract.ts` is the one suite for all three.
 */

export interface SetOptions {
  /** Expire the key after this many milliseconds. */
  ttlMs?: number;
  /** Only set when the key does not exist (a lock); `set` then answers whether it did. */
  onlyIfAbsent?: boolean;
  /**
   * Only set when the key exists (a rewrite that must not bring back what was deleted meanwhile,
   * such as a revoked session); `set` then answers whether it did.
   */
  onlyIfPresent?: boolean;
  /**
   * Only set when the key holds exactly this value (a compare-and-set: a rewrite of a record read
   * before must not undo another write made since); `set` then answers whether it did.
   */
  onlyIfValue?: string;
}

export interface IncrementOptions {
  /** Lifetime of a counter this call creates; an existing counter keeps its expiry. */
  ttlMs: number;
  /** The step, an integer; 1 when absent. */
  by?: number;
  /**
   * Only count on a live counter, never create one: a count given back after its window ended
   * must not open the next window at -1 (one more attempt for whoever waits it out). Answers 0
   * when there was none.
   */
  onlyIfPresent?: boolean;
}

export interface FieldOptions {
  /** The field expires after this many milliseconds; the map lives as long as its longest-lived field. */
  ttlMs: number;
  /** Only set when the field is live (a rewrite that must not bring back what was deleted meanwhile); `setField` then answers whether it did. */
  onlyIfPresent?: boolean;
}

export interface KeyValue {
  readonly kind: 'redis' | 'embedded' | 'memory';
  get(key: string): Promise<string | null>;
  /** Answers true when the value was written (always, unless `onlyIfAbsent` found the key or `onlyIfPresent` did not). */
  set(key: string, value: string, options?: SetOptions): Promise<boolean>;
  /**
   * Adds `by` (default 1; negative to give a count back) to a counter and answers the new value in
   * one atomic step; a counter that does not exist starts at 0 and expires after `ttlMs` from its
   * creation (later increments keep that expiry): a fixed window.
   */
  increment(key: string, options: IncrementOptions): Promise<number>;
  /** Answers true when a key was removed. */
  delete(key: string): Promise<boolean>;
  /**
   * Every live key starting with `prefix`, with its value, in key order. It reads the whole key
   * space (Redis SCAN), so it is for tools and start-up, never for a request: what a request lists
   * (a user's sessions) belongs in a map of fields.
   */
  scan(prefix: string): Promise<Array<{ key: string; value: string }>>;
  /**
   * Sets `field` of the map at `key` (a Redis hash; a map's key holds no plain value) to `value`;
   * answers true when it was written (always, unless `onlyIfPresent` did not find the field live).
   */
  setField(key: string, field: string, value: string, options: FieldOptions): Promise<boolean>;
  /** The live fields of the map at `key`, with their values, in field order; one read, however large the key space. */
  fields(key: string): Promise<Array<{ field: string; value: string }>>;
  /** Answers true when a live field was removed. */
  deleteField(key: string, field: string): Promise<boolean>;
  /** Lightweight liveness probe for health checks. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

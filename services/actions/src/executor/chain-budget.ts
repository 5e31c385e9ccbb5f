import { createHash } from 'node:crypto';
import type { KeyValue } from '@platform/kv';

/**
 * How long a chain's count is kept from its first write. Chains finish in seconds; one whose
 * events wait longer on the bus (an outage) starts counting again, and still ends at the depth limit.
 */
export const CHAIN_BUDGET_TTL_MS = 60 * 60 * 1000;

/** The counter of one chain; hashed so that a long event id makes a short key. */
function chainKey(chain: string): string {
  return `actions:chain:${createHash('sha256').update(chain).digest('base64url').slice(0, 32)}`;
}

/**
 * The writes one chain of actions may make (ACTIONS_MAX_CHAIN_WRITES; docs/actions.md, Loop
 * guard). The depth limit alone bounds a chain by b^d writes (b: the writes a run makes, up to
 * 100 blocks in each of the matching actions), so one person's write could make a million; this
 * bounds the whole chain, across runs, events and replicas, by one counter in the key-value store.
 */
export class ActionChainBudget {
  constructor(
    private readonly kv: KeyValue,
    private readonly maxWrites: number,
  ) {}

  /** Counts one write attempt of `chain`; answers false when the chain has used its budget (the write must not be made). */
  async take(chain: string): Promise<boolean> {
    return (await this.kv.increment(chainKey(chain), { ttlMs: CHAIN_BUDGET_TTL_MS })) <= this.maxWrites;
  }

  get limit(): number {
    return this.maxWrites;
  }
}

/**
 * Clients that follow the interface to the letter: they pull with `updatedAt` only (never the
 * cursor) and pull again from the largest `updatedAt` they saw. Shared by the all-in-one and the
 * microservice tests of pull pages.
 */

export type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

interface PulledItem {
  id: string;
  revision: number;
  updatedAt: number;
  deletedAt?: number;
}

/** What a client holds per entity id: its revision, and whether it is deleted. */
export type Replica = Map<string, { revision: number; deleted: boolean }>;

/** A tiny seeded generator, so a failing run can be repeated with its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function merge(replica: Replica, items: PulledItem[]): void {
  for (const item of items) {
    const known = replica.get(item.id);
    if (!known || known.revision <= item.revision) replica.set(item.id, { revision: item.revision, deleted: item.deletedAt !== undefined });
  }
}

/**
 * Pulls from `since` until a page comes back empty, each time from the largest `updatedAt` seen;
 * answers what it saw. `pull` gets the query string.
 */
export async function pullWithUpdatedAtOnly(
  pull: (query: string) => Promise<{ status: number; body: any }>,
  options: { since: number; limit: () => number; replica?: Replica },
): Promise<Replica> {
  const replica = options.replica ?? new Map();
  let since = options.since;
  for (;;) {
    const page = await pull(`updatedAt=${since}&limit=${options.limit()}`);
    if (page.status !== 200) throw new Error(`pull answered ${page.status}: ${JSON.stringify(page.body)}`);
    const items = page.body.items as PulledItem[];
    if (items.length === 0) return replica;
    merge(replica, items);
    since = Math.max(since, ...items.map((item) => item.updatedAt));
  }
}

export interface ConcurrentRun {
  /** Every entity as a full pull answers it at the end. */
  server: Replica;
  /** Each client's replica after its final catch-up. */
  clients: Replica[];
  /** How many milliseconds held more than one write (the cases a page boundary could split). */
  sharedMilliseconds: number;
}

/**
 * Writers create, patch and delete documents and change their RLS in batches (many writes in one
 * millisecond) while clients pull with random page sizes; then every client catches up once the
 * writes are pullable (`settleMs`, the data service's margin on a shared store).
 */
export async function runConcurrentWritesAndPulls(options: { call: Call; typePath: string; seed: number; settleMs: number; rounds?: number }): Promise<ConcurrentRun> {
  const { call, typePath, seed } = options;
  const rounds = options.rounds ?? 40;
  const next = random(seed);
  const pageSize = () => 1 + Math.floor(next() * 12);
  const ids: string[] = [];
  let writing = true;

  async function writer(name: string): Promise<void> {
    for (let round = 0; round < rounds; round += 1) {
      const choice = next();
      const id = ids[Math.floor(next() * ids.length)];
      if (choice < 0.5 || id === undefined) {
        const created = await call('POST', `${typePath}/data`, { writer: name, round });
        if (created.status !== 201) throw new Error(`POST answered ${created.status}`);
        ids.push(created.body.id);
      } else if (choice < 0.85) {
        const current = await call('GET', `${typePath}/data/${id}`);
        if (current.body.deletedAt !== undefined) continue;
        const patched = await call('PATCH', `${typePath}/data/${id}`, { modifier: { $set: { [name]: round } }, baseRevision: current.body.revision });
        if (![200, 404, 409].includes(patched.status)) throw new Error(`PATCH answered ${patched.status}`);
      } else if (choice < 0.9) {
        const removed = await call('DELETE', `${typePath}/data/${id}`);
        if (![200, 404, 409].includes(removed.status)) throw new Error(`DELETE answered ${removed.status}`);
      } else {
        const action = next() < 0.5 ? 'setPermission' : 'removePermission';
        const batch = await call('POST', `${typePath}/batch-rls`, { action, operations: ['delete'], permission: 'editors' });
        // 409: another writer changed an entity the batch was writing.
        if (![200, 409].includes(batch.status)) throw new Error(`batch RLS answered ${batch.status}`);
      }
    }
  }

  const replicas: Replica[] = [new Map(), new Map(), new Map()];
  const pull = (query: string) => call('GET', `${typePath}/data?${query}`);
  async function client(replica: Replica): Promise<void> {
    let since = 0;
    while (writing) {
      const page = await call('GET', `${typePath}/data?updatedAt=${since}&limit=${pageSize()}`);
      if (page.status !== 200) throw new Error(`pull answered ${page.status}`);
      const items = page.body.items as PulledItem[];
      merge(replica, items);
      if (items.length) since = Math.max(since, ...items.map((item) => item.updatedAt));
      else await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await new Promise((resolve) => setTimeout(resolve, options.settleMs));
    await pullWithUpdatedAtOnly(pull, { since, limit: pageSize, replica });
  }

  const clients = replicas.map((replica) => client(replica));
  const writers = await Promise.allSettled(['a', 'b', 'c'].map((name) => writer(name)));
  writing = false;
  const pulls = await Promise.allSettled(clients);
  for (const outcome of [...writers, ...pulls]) if (outcome.status === 'rejected') throw outcome.reason;

  const all = await call('GET', `${typePath}/data?updatedAt=0&limit=5000`);
  const server: Replica = new Map();
  merge(server, all.body.items as PulledItem[]);
  const perMillisecond = new Map<number, number>();
  for (const item of all.body.items as PulledItem[]) perMillisecond.set(item.updatedAt, (perMillisecond.get(item.updatedAt) ?? 0) + 1);
  return { server, clients: replicas, sharedMilliseconds: [...perMillisecond.values()].filter((count) => count > 1).length };
}

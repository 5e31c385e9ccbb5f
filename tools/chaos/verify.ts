import type { LoadGenerator } from './load';
import type { Fixture } from './seed';
import { readDocument, readRuns, readTrail, type Run, type StoredDocument, type TrailItem } from './server-state';
import type { Phase, Traffic } from './traffic';

export interface Damage {
  lostWrites: number;
  lostTrail: number;
  lostRuns: number;
  duplicatedTrail: number;
  duplicatedRuns: number;
}

export interface Findings {
  damage: Map<Phase, Damage>;
  violations: string[];
  notes: string[];
}

const changeKey = (entityId: string, timestamp: number) => `${entityId}@${timestamp}`;

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Polls until `read` reports at least `expected` items, so late consumers get their chance. */
async function settled<T>(read: () => Promise<{ items: T[]; total: number }>, expected: number, timeoutMs: number): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { items } = await read();
    if (items.length >= expected || Date.now() > deadline) return items;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/**
 * Compares what the writers were told with what the platform holds: every acknowledged write is
 * stored, every change of every document appears exactly once in the audit trail, and every
 * created document has exactly one run of the action. Damage is counted in the phase of the
 * write's acknowledgement or of the change's timestamp.
 */
export async function verify(
  fixture: Fixture,
  load: LoadGenerator,
  documents: ReadonlyMap<string, StoredDocument>,
  traffic: Traffic,
  timeoutMs: number,
): Promise<Findings> {
  const damage = new Map<Phase, Damage>(traffic.phases.map((phase) => [phase, { lostWrites: 0, lostTrail: 0, lostRuns: 0, duplicatedTrail: 0, duplicatedRuns: 0 }]));
  const charge = (time: number, field: keyof Damage, amount = 1) => void (damage.get(traffic.phaseAt(time))![field] += amount);
  const violations: string[] = [];
  const notes: string[] = [];

  for (const write of load.acknowledged) {
    const stored = documents.get(write.documentId) ?? (await readDocument(fixture, write.documentId));
    if (stored && !documents.has(write.documentId)) violations.push(`${write.documentId} is stored but the list does not return it`);
    if (!stored || stored.revision < write.revision) {
      charge(write.at, 'lostWrites');
      violations.push(`acknowledged write lost: ${write.documentId} revision ${write.revision} (stored: ${stored ? `revision ${stored.revision}` : 'nothing'})`);
    }
  }
  for (const written of load.documents.values()) {
    const stored = documents.get(written.id);
    if (!stored || written.unresolved) continue;
    if (stored.revision !== written.revision || stored.n !== written.n) {
      violations.push(`${written.id}: the writer was told revision ${written.revision} n=${written.n}, the server has revision ${stored.revision} n=${String(stored.n)}`);
    }
  }

  const changes = [...documents.values()].flatMap((document) => document.changes.map((change) => ({ entityId: document.id, timestamp: change.timestamp })));
  const trail = await settled(() => readTrail(fixture), changes.length, timeoutMs);
  const trailCounts = countBy(trail, (item: TrailItem) => changeKey(item.entityId, item.timestamp));
  for (const change of changes) {
    const count = trailCounts.get(changeKey(change.entityId, change.timestamp)) ?? 0;
    if (count === 0) charge(change.timestamp, 'lostTrail');
    if (count > 1) charge(change.timestamp, 'duplicatedTrail', count - 1);
    if (count !== 1) violations.push(`audit trail holds the change of ${change.entityId} at ${change.timestamp} ${count} times`);
  }
  const known = new Set(changes.map((change) => changeKey(change.entityId, change.timestamp)));
  for (const item of trail) {
    if (!known.has(changeKey(item.entityId, item.timestamp))) violations.push(`audit trail item for no stored change: ${item.entityId} at ${item.timestamp} (${item.changeDescription})`);
  }

  const runs = await settled(() => readRuns(fixture), documents.size, timeoutMs);
  const runCounts = countBy(runs, (run: Run) => run.documentId ?? '');
  for (const document of documents.values()) {
    const count = runCounts.get(document.id) ?? 0;
    if (count === 0) charge(document.createdAt, 'lostRuns');
    if (count > 1) charge(document.createdAt, 'duplicatedRuns', count - 1);
    if (count !== 1) violations.push(`${document.id} has ${count} action runs, expected 1`);
  }
  for (const run of runs) if (!documents.has(run.documentId ?? '')) violations.push(`action run ${run.eventId} for no stored document`);
  const statuses = countBy(runs, (run: Run) => run.status);
  notes.push(`action runs by status: ${[...statuses].map(([status, count]) => `${status} ${count}`).join(', ')}`);
  notes.push(`documents ${documents.size}, changes ${changes.length}, audit items ${trail.length}, runs ${runs.length}`);
  return { damage, violations, notes };
}

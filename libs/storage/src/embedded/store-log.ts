import { AsyncLocalStorage } from 'node:async_hooks';
import type { IndexSpec } from '../port';
import { AppendLog } from './append-log';

/** One change to one collection; replaying a collection's records in order rebuilds it. */
export type CollectionRecord = { put: Record<string, unknown> } | { del: string } | { index: IndexSpec };

/**
 * One line of the store's write-ahead log: a change tagged with its collection, or a group of
 * such changes written by one atomic section (one line, so a crash keeps all of it or none).
 */
export type StoreLogLine = (CollectionRecord & { c: string }) | { group: Array<CollectionRecord & { c: string }> };

/** How a collection hands its changes to the store's log. */
export interface CollectionWriter {
  /** `json` is the stored document's JSON. */
  put(json: string): Promise<void>;
  del(id: string): Promise<void>;
  index(spec: IndexSpec): Promise<void>;
}

interface Section {
  lines: string[];
  open: boolean;
}

/** Sorts the log's lines into each collection's records, in log order. */
export function recordsByCollection(lines: StoreLogLine[]): Map<string, CollectionRecord[]> {
  const byCollection = new Map<string, CollectionRecord[]>();
  const add = (line: CollectionRecord & { c: string }) => {
    const { c, ...record } = line;
    let records = byCollection.get(c);
    if (!records) byCollection.set(c, (records = []));
    records.push(record as CollectionRecord);
  };
  for (const line of lines) {
    if ('group' in line) for (const member of line.group) add(member);
    else add(line);
  }
  return byCollection;
}

/**
 * The one write-ahead log of the embedded store: every collection's changes go to one file with
 * group commit, so writes to several collections issued together are one synchronized write.
 * Inside `atomically`, writes change memory at once and their lines are kept back; when the
 * section ends they go out as one line, so after a crash all of them are there or none.
 * Snapshots (compaction, backups) are taken only while no section is open, so they never hold
 * half of one; a wanted snapshot holds new sections back until it is taken.
 */
export class StoreLog {
  private readonly sections = new AsyncLocalStorage<Section>();
  private openSections = 0;
  private snapshotTakers: Array<() => void> = [];
  private snapshotTaken: Promise<void> | undefined;
  private readonly log: AppendLog;

  constructor(
    file: string,
    options: { fsync: boolean; validBytes: number; lineCount: number; liveCount: () => number },
    private readonly collect: () => Iterable<string>,
  ) {
    this.log = new AppendLog(file, { ...options, snapshot: (taken) => this.snapshot(taken) });
  }

  writerFor(collection: string): CollectionWriter {
    const prefix = `{"c":${JSON.stringify(collection)},`;
    return {
      put: (json) => this.write(`${prefix}"put":${json}}`),
      del: (id) => this.write(`${prefix}"del":${JSON.stringify(id)}}`),
      index: (spec) => this.write(`${prefix}"index":${JSON.stringify(spec)}}`),
    };
  }

  /** Bytes of the log on disk. */
  get size(): number {
    return this.log.size;
  }

  /**
   * Runs `work` so that every write it makes reaches the disk in one line: its writes resolve once
   * applied in memory, and the section resolves once the line is on disk. A write that throws
   * leaves the writes before it applied, and they are written with the rest. Nested sections
   * join the outer one.
   */
  async atomically<R>(work: () => Promise<R>): Promise<R> {
    if (this.sections.getStore()?.open) return work();
    while (this.snapshotTaken) await this.snapshotTaken;
    const section: Section = { lines: [], open: true };
    this.openSections += 1;
    let written: Promise<void> = Promise.resolve();
    try {
      return await this.sections.run(section, work);
    } finally {
      // Writes from tasks the section started but did not wait for go straight to the log.
      section.open = false;
      const { lines } = section;
      if (lines.length === 1) written = this.log.appendSerialized(lines[0] as string);
      else if (lines.length > 1) written = this.log.appendSerialized(`{"group":[${lines.join(',')}]}`);
      this.openSections -= 1;
      if (this.openSections === 0) this.takeWaitingSnapshots();
      await written;
    }
  }

  /** The lines that rebuild the state, taken at an instant when no atomic section is open; `taken` runs at that instant. */
  snapshot(taken?: () => void): Promise<Iterable<string>> {
    const take = () => {
      const lines = this.collect();
      taken?.();
      return lines;
    };
    if (this.openSections === 0) return Promise.resolve(take());
    let opened: (() => void) | undefined;
    this.snapshotTaken ??= new Promise<void>((resolve) => {
      opened = resolve;
    });
    const result = new Promise<Iterable<string>>((resolve) => this.snapshotTakers.push(() => resolve(take())));
    if (opened) this.snapshotTakers.push(opened);
    return result;
  }

  close(): Promise<void> {
    return this.log.close();
  }

  private takeWaitingSnapshots(): void {
    const takers = this.snapshotTakers;
    this.snapshotTakers = [];
    this.snapshotTaken = undefined;
    for (const take of takers) take();
  }

  private write(line: string): Promise<void> {
    const section = this.sections.getStore();
    if (section?.open) {
      section.lines.push(line);
      return Promise.resolve();
    }
    return this.log.appendSerialized(line);
  }
}

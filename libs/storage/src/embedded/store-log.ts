import type { IndexSpec } from '../port';
import { AppendLog, type AppendLogOptions } from './append-log';

/** One change to one collection; replaying a collection's records in order rebuilds it. */
export type CollectionRecord = { put: Record<string, unknown> } | { del: string } | { index: IndexSpec };

/** A log line that removes a collection: replay forgets every record of it before this one. */
export type DropRecord = { drop: true };

/**
 * One line of the store's write-ahead log: a change tagged with its collection, or a group of
 * such changes written by one atomic section (one line, so a crash keeps all of it or none).
 */
export type StoreLogLine = (CollectionRecord & { c: string }) | (DropRecord & { c: string }) | { group: Array<CollectionRecord & { c: string }> };

/**
 * The keys of unique indexes a write took and gave up, each named by the index's keys as JSON
 * followed by the key (unique within a collection).
 */
export interface UniqueKeyChange {
  claimed: string[];
  freed: string[];
}

/** How a collection hands its changes to the store's log. */
export interface CollectionWriter {
  /** `json` is the stored document's JSON; `keys`, when the collection has unique indexes, what the write did to them. */
  put(id: string, json: string, keys?: UniqueKeyChange): Promise<void>;
  del(id: string, keys?: UniqueKeyChange): Promise<void>;
  index(spec: IndexSpec): Promise<void>;
  /** Writes that the collection was removed (never inside an atomic section). */
  drop(): Promise<void>;
  /** Why the log refuses writes (it failed, or is closed): a write then changes nothing. Every refused write rejects with this error. */
  refusal(): Error | undefined;
}

/** A stored document's JSON as it is in memory now, or undefined once it is deleted. */
export type CurrentJson = (id: string) => string | undefined;

interface DirtyDocument {
  prefix: string;
  id: string;
  current: CurrentJson;
}

/**
 * Atomic sections that touched a common document commit together, as one line: each may have
 * read what the other wrote, so neither may reach the disk without the other.
 */
interface Group {
  sections: Set<LogSection>;
  open: number;
  /** Documents the group wrote, by collection and id: the line holds their state at commit. */
  documents: Map<string, DirtyDocument>;
  /** Unique keys its writes gave up, by collection prefix and key (StoreLog.freed). */
  freedKeys: Set<string>;
  indexLines: string[];
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** One atomic section of the log (see StoreLog.atomically); opaque outside this file. */
export interface LogSection {
  group: Group;
  open: boolean;
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const committed = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { sections: new Set(), open: 0, documents: new Map(), freedKeys: new Set(), indexLines: [], committed, resolve, reject };
}

/** Sorts the log's lines into each collection's records, in log order; a dropped collection's records before its drop are left out. */
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
    else if ('drop' in line) byCollection.delete(line.c);
    else add(line);
  }
  return byCollection;
}

/**
 * The one write-ahead log of the embedded store: every collection's changes go to one file with
 * group commit, so writes to several collections issued together are one synchronized write.
 * Inside `atomically`, writes made `within` the section change memory at once and their lines
 * are kept back; when the section ends they go out as one line, so after a crash all of them are
 * there or none.
 * The line holds each document as memory has it when the section ends, so the log's order
 * follows memory's even when writes interleave with an open section: a section writing a
 * document another open section wrote joins it (they commit as one line once both ended), and
 * a plain write to such a document resolves with that line. A write that takes a unique key such
 * a group gave up joins it the same way: written apart, it could reach the disk without the line
 * that frees the key, and the log would replay to two documents holding one key.
 * Snapshots (compaction, backups) are taken only while no section is open, so they never hold
 * half of one (`collect` takes every document at its call); a wanted snapshot holds new sections
 * back until it is taken.
 */
export class StoreLog {
  /**
   * The section a write is being made in, set only for the synchronous length of that call
   * (`within`): a collection hands its change to the writer before the call returns its promise.
   */
  private active: LogSection | undefined;
  /** Documents written by a group that has not committed yet, by `collection prefix + id`. */
  private readonly dirty = new Map<string, Group>();
  /** Unique keys given up by a group that has not committed yet, by `collection prefix + key`. */
  private readonly freed = new Map<string, Group>();
  private openSections = 0;
  private snapshotTakers: Array<() => void> = [];
  private snapshotTaken: Promise<void> | undefined;
  private readonly log: AppendLog;

  constructor(
    file: string,
    /** Handed to the AppendLog (its reporter and `onFailure` included); the snapshot is the store's own. */
    options: Omit<AppendLogOptions, 'snapshot'>,
    /** The lines that rebuild the state: the documents are taken at the call, their JSON may be made later. */
    private readonly collect: () => Iterable<string>,
  ) {
    this.log = new AppendLog(file, { ...options, snapshot: (taken) => this.snapshot(taken) });
  }

  writerFor(collection: string, current: CurrentJson): CollectionWriter {
    const prefix = `{"c":${JSON.stringify(collection)},`;
    return {
      put: (id, json, keys) => this.writeDocument({ prefix, id, current }, () => `${prefix}"put":${json}}`, keys),
      del: (id, keys) => this.writeDocument({ prefix, id, current }, () => `${prefix}"del":${JSON.stringify(id)}}`, keys),
      index: (spec) => {
        const line = `${prefix}"index":${JSON.stringify(spec)}}`;
        const section = this.active;
        if (!section?.open) return this.log.appendSerialized(line);
        section.group.indexLines.push(line);
        return Promise.resolve();
      },
      drop: () => this.log.appendSerialized(`${prefix}"drop":true}`),
      refusal: () => this.log.refusal,
    };
  }

  /** Bytes of the log on disk. */
  get size(): number {
    return this.log.size;
  }

  /** Why the log refuses writes (AppendLog.refusal). */
  get refusal(): Error | undefined {
    return this.log.refusal;
  }

  /**
   * Runs `work` with a new section: every write made `within` it reaches the disk in one line.
   * Its writes resolve once applied in memory, and the section resolves once the line is on disk.
   * A write that throws leaves the writes before it applied, and they are written with the rest.
   */
  async atomically<R>(work: (section: LogSection) => Promise<R>): Promise<R> {
    while (this.snapshotTaken) await this.snapshotTaken;
    const section: LogSection = { group: newGroup(), open: true };
    section.group.sections.add(section);
    section.group.open = 1;
    this.openSections += 1;
    try {
      return await work(section);
    } finally {
      // Writes from tasks the section started but did not wait for go straight to the log.
      section.open = false;
      const { group } = section;
      group.open -= 1;
      if (group.open === 0) this.commit(group);
      this.openSections -= 1;
      if (this.openSections === 0) this.takeWaitingSnapshots();
      await group.committed;
    }
  }

  /**
   * Makes `write`, a collection call that hands its changes to the writer before it returns (every
   * embedded collection's write does), a write of `section`.
   */
  within<R>(section: LogSection, write: () => R): R {
    const outer = this.active;
    this.active = section;
    try {
      return write();
    } finally {
      this.active = outer;
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

  /**
   * A put or delete of one document: kept back in an open section, joined to the groups that
   * have the document or gave up a unique key it takes, or appended.
   */
  private writeDocument(document: DirtyDocument, line: () => string, keys: UniqueKeyChange | undefined): Promise<void> {
    const key = document.prefix + document.id;
    const section = this.active?.open ? this.active : undefined;
    let group = this.joined(section?.group, this.dirty.get(key));
    // Most writes meet no section that gave up a unique key: no key strings built for them.
    if (keys && this.freed.size > 0) for (const claimed of keys.claimed) group = this.joined(group, this.freed.get(document.prefix + claimed));
    if (!group) return this.log.appendSerialized(line());
    group.documents.set(key, document);
    this.dirty.set(key, group);
    if (keys) {
      for (const freed of keys.freed) {
        group.freedKeys.add(document.prefix + freed);
        this.freed.set(document.prefix + freed, group);
      }
    }
    return section ? Promise.resolve() : group.committed;
  }

  /** The group a write shares its line with, given one so far and another it must join. */
  private joined(group: Group | undefined, other: Group | undefined): Group | undefined {
    if (!group || !other || other === group) return group ?? other;
    return this.merge(group, other);
  }

  /** Moves `other` into `group`: one line for both, written once every section of either has ended. */
  private merge(group: Group, other: Group): Group {
    for (const section of other.sections) {
      section.group = group;
      group.sections.add(section);
    }
    group.open += other.open;
    for (const [key, document] of other.documents) {
      group.documents.set(key, document);
      this.dirty.set(key, group);
    }
    for (const key of other.freedKeys) {
      group.freedKeys.add(key);
      this.freed.set(key, group);
    }
    group.indexLines.push(...other.indexLines);
    group.committed.then(other.resolve, other.reject);
    return group;
  }

  /** Writes the group's line: its indexes, then each document it wrote as memory has it now. */
  private commit(group: Group): void {
    const lines = [...group.indexLines];
    for (const [key, { prefix, id, current }] of group.documents) {
      const json = current(id);
      lines.push(json === undefined ? `${prefix}"del":${JSON.stringify(id)}}` : `${prefix}"put":${json}}`);
      if (this.dirty.get(key) === group) this.dirty.delete(key);
    }
    for (const key of group.freedKeys) if (this.freed.get(key) === group) this.freed.delete(key);
    if (lines.length === 0) return group.resolve();
    const written = this.log.appendSerialized(lines.length === 1 ? (lines[0] as string) : `{"group":[${lines.join(',')}]}`);
    written.then(group.resolve, group.reject);
  }
}

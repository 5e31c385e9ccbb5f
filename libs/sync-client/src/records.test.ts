import { describe, expect, it } from 'vitest';
import { afterPush, applyPulled, discardLocalChanges, patchModifier, pendingOperation, resolveRevisionConflict, stateOf, visibleDocument } from './records';
import type { EntityRecord, SyncDocument } from './types';

const doc = (revision: number, fields: Record<string, unknown> = {}, deletedAt?: number): SyncDocument => ({
  id: 'e1',
  revision,
  createdAt: 1,
  updatedAt: 10 + revision,
  ...(deletedAt === undefined ? {} : { deletedAt }),
  ...fields,
});

/** A deleted entity as a pull answers it: no content (docs/sync.md, Tombstones). */
const tombstone = (revision: number, deletedAt: number): SyncDocument => ({ id: 'e1', revision, createdAt: 1, updatedAt: 10 + revision, deletedAt });

const clean = (server: SyncDocument): EntityRecord => ({ id: 'e1', server, local: { title: server.title }, deleted: false, touched: [], seq: 0 });

describe('pull classification', () => {
  it.each([
    { case: 'unknown entity', record: undefined, item: doc(0, { title: 'a' }), classification: 'added' },
    { case: 'unknown entity already deleted', record: undefined, item: tombstone(1, 5), classification: undefined },
    { case: 'newer revision', record: clean(doc(0, { title: 'a' })), item: doc(1, { title: 'b' }), classification: 'modified' },
    { case: 'deleted on the server', record: clean(doc(0, { title: 'a' })), item: tombstone(1, 5), classification: 'removed' },
    { case: 'a revision already held', record: clean(doc(2, { title: 'a' })), item: doc(2, { title: 'a' }), classification: undefined },
  ])('$case → $classification', ({ record, item, classification }) => {
    expect(applyPulled(record, item).classification).toBe(classification);
  });

  it('keeps the base of a record with local changes and remembers the newer version', () => {
    const record: EntityRecord = { ...clean(doc(0, { title: 'a' })), local: { title: 'mine' }, touched: ['title'], seq: 1 };
    expect(applyPulled(record, doc(1, { title: 'theirs' })).classification).toBeUndefined();
    expect(record.server?.revision).toBe(0);
    expect(record.newer?.revision).toBe(1);
    expect(stateOf(record)).toBe('localChanges');
  });

  it('needs nothing but the tombstone to drop a copy, also one whose local changes are discarded', () => {
    const record = clean(doc(0, { title: 'a' }));
    applyPulled(record, tombstone(1, 5));
    expect([visibleDocument(record), stateOf(record), record.server]).toEqual([undefined, 'synced', tombstone(1, 5)]);

    const edited: EntityRecord = { ...clean(doc(0, { title: 'a' })), local: { title: 'mine' }, touched: ['title'], seq: 1 };
    expect(applyPulled(edited, tombstone(1, 5)).classification).toBeUndefined();
    expect(visibleDocument(edited)).toMatchObject({ title: 'mine' });
    discardLocalChanges(edited);
    expect([visibleDocument(edited), stateOf(edited)]).toEqual([undefined, 'synced']);
  });
});

describe('push', () => {
  it('patches only the touched fields, $unset for removed ones, on the base revision', () => {
    const record: EntityRecord = { id: 'e1', server: doc(3, { title: 'a', note: 'n', other: 1 }), local: { title: 'b', other: 1 }, deleted: false, touched: ['title', 'note'], seq: 2 };
    expect(pendingOperation(record)).toBe('patch');
    expect(patchModifier(record)).toEqual({ $set: { title: 'b' }, $unset: { note: '' } });
  });

  it('keeps edits made while the push was in flight on top of the answer', () => {
    const record: EntityRecord = { id: 'e1', server: doc(0, { title: 'a', n: 1 }), local: { title: 'b', n: 2 }, deleted: false, touched: ['title', 'n'], seq: 3 };
    afterPush(record, doc(1, { title: 'b', n: 1 }), 2);
    expect(record.local).toEqual({ title: 'b', n: 2 });
    expect(record.touched).toEqual(['n']);
    expect(stateOf(record)).toBe('localChanges');
  });

  it('takes a newer server version seen during the push once nothing is pending', () => {
    const record: EntityRecord = { id: 'e1', server: doc(0, { title: 'a' }), local: { title: 'b' }, deleted: false, touched: ['title'], seq: 1, newer: doc(2, { title: 'c' }) };
    afterPush(record, doc(1, { title: 'b' }), 1);
    expect(record.server?.revision).toBe(2);
    expect(record.local).toEqual({ title: 'c' });
    expect(stateOf(record)).toBe('synced');
  });

  it('sends nothing for localOnly records or records in conflict', () => {
    const base = { id: 'e1', local: { title: 'x' }, deleted: false, touched: ['title'], seq: 1 };
    expect(pendingOperation({ ...base, localOnly: true })).toBeUndefined();
    expect(stateOf({ ...base, localOnly: true })).toBe('localChanges');
    expect(pendingOperation({ ...base, conflict: { reason: 'revision', fields: [], at: 0 } })).toBeUndefined();
  });
});

describe('a delete of an insert the server may hold', () => {
  it('is sent when an insert was sent without an answer, not when none was; pulled versions wait behind it', () => {
    const deleted: EntityRecord = { id: 'a', local: { title: 't' }, deleted: true, touched: ['title'], seq: 2 };
    expect(pendingOperation(deleted)).toBeUndefined();
    const sent = { ...deleted, sentInserts: [{ title: 't' }] };
    expect(pendingOperation(sent)).toBe('delete');
    expect(stateOf(sent)).toBe('localChanges');
    const pulled: SyncDocument = { id: 'a', revision: 0, createdAt: 1, updatedAt: 1, title: 't' };
    const { record, classification } = applyPulled(sent, pulled);
    expect([classification, record?.newer, visibleDocument(record as EntityRecord)]).toEqual([undefined, pulled, undefined]);
  });
});

describe('conflict resolution', () => {
  const conflicted = (): EntityRecord => ({
    id: 'e1',
    server: doc(0, { title: 'base', note: 'base', count: 1 }),
    local: { title: 'mine', note: 'my note', count: 1 },
    deleted: false,
    touched: ['title', 'note'],
    seq: 4,
    conflict: { reason: 'revision', current: doc(1, { title: 'theirs', note: 'base', count: 2 }), fields: [], at: 0 },
  });

  it.each([
    { case: 'all theirs', choose: () => 'theirs' as const, local: { title: 'theirs', note: 'base', count: 2 }, touched: [] },
    { case: 'all mine', choose: () => 'mine' as const, local: { title: 'mine', note: 'my note', count: 2 }, touched: ['title', 'note'] },
    { case: 'title theirs, note mine', choose: (f: string) => (f === 'title' ? 'theirs' : 'mine') as 'theirs' | 'mine', local: { title: 'theirs', note: 'my note', count: 2 }, touched: ['note'] },
  ])('$case', ({ choose, local, touched }) => {
    const record = conflicted();
    resolveRevisionConflict(record, choose);
    expect(record.conflict).toBeUndefined();
    expect(record.server?.revision).toBe(1);
    expect(record.local).toEqual(local);
    expect(record.touched).toEqual(touched);
    expect(record.seq).toBe(5);
  });
});

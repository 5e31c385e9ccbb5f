import { update } from 'mingo/updater';
import { describe, expect, it } from 'vitest';
import { applyUpdate, replayUpdates } from './apply-update';
import type { UpdateModifier } from './port';

/** What the query engine alone makes of it: the meaning the direct path must keep. */
function viaEngine(document: Record<string, unknown>, modifier: UpdateModifier): { result: unknown } | { error: true } {
  const copy = JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
  try {
    update(copy, modifier as never);
    return { result: copy };
  } catch {
    return { error: true };
  }
}

function viaApplyUpdate(document: Record<string, unknown>, modifier: UpdateModifier): { result: unknown } | { error: true } {
  try {
    return { result: applyUpdate(document, modifier) };
  } catch {
    return { error: true };
  }
}

const documents: Array<Record<string, unknown>> = [
  { id: 'empty' },
  { id: 'flat', title: 'A', count: 2, done: false, note: null, ratio: -0.5 },
  { id: 'nested', meta: { owner: 'ann', stats: { views: 3 } }, tags: ['x', 'y', 'x'], list: [1, 2, 2, '2'] },
  { id: 'odd', meta: 'text', tags: 'x', count: 'seven', list: null, arr: [[1], { a: 1 }, 1], objs: [{ a: 1, b: 2 }, { a: 1 }] },
  { id: 'outbox', _outbox: [{ revision: 1, modifierJson: '{"$set":{"a":1}}', userId: 'u' }], deep: { a: { b: { c: 1 } } } },
  {
    id: 'waiting',
    _outbox: [
      { revision: 0, modifierJson: '{"$set":{"a":0}}', userId: 'u' },
      { revision: 1, modifierJson: '{"$set":{"a":1}}', userId: 'u' },
      { revision: 2, modifierJson: '{"$set":{"a":1}}', userId: 'v', extra: 'kept' },
    ],
    objs: [{ a: 1, b: null }, { a: [1, 2] }, { b: 2 }],
    mixed: [{ a: 1 }, 1, 'a'],
  },
];

const modifiers: UpdateModifier[] = [
  { $set: { title: 'B' } },
  { $set: { title: 'A' } },
  { $set: { 'meta.owner': 'bob', 'meta.stats.views': 4 } },
  { $set: { 'meta.fresh.deeper': true } },
  { $set: { 'tags.0': 'z' } },
  { $set: { 'note.inner': 1 } },
  { $set: { 'list.1': 9 } },
  { $set: { obj: { a: [1, { b: null }] }, nothing: null } },
  { $set: { weird: { $gt: 1 } } },
  { $set: { 'deep.a.b.c': 2, 'deep.a.d': [] } },
  { $unset: { title: '', 'meta.owner': '', 'missing.path': '', 'tags.0': '' } },
  { $unset: { 'meta.stats.views': 1 } },
  { $inc: { count: 1 } },
  { $inc: { count: -2.5, fresh: 3 } },
  { $inc: { 'meta.stats.views': 1, 'meta.other': 1 } },
  { $inc: { note: 1 } },
  { $inc: { title: 1 } },
  { $inc: { count: '1' } as unknown as Record<string, number> },
  { $push: { tags: 'w' } },
  { $push: { fresh: { a: 1 } } },
  { $push: { objs: { a: 2, nested: { b: [1] } }, tags: ['list'] } },
  { $push: { objs: { $slice: 1 } } },
  { $push: { 'meta.list': 1 } },
  { $push: { tags: { $each: ['p', 'q'] } } },
  { $push: { title: 1 } },
  { $push: { list: null } },
  { $pull: { tags: 'x' } },
  { $pull: { list: 2 } },
  { $pull: { list: '2' } },
  { $pull: { arr: 1 } },
  { $pull: { objs: { a: 1 } } },
  { $pull: { objs: { a: 1, b: 2 } } },
  { $pull: { _outbox: { revision: 1, modifierJson: '{"$set":{"a":1}}', userId: 'u' } } },
  { $pull: { _outbox: { revision: 1 } } },
  { $pull: { _outbox: { revision: 2, modifierJson: '{"$set":{"a":1}}', userId: 'v' } } },
  { $pull: { _outbox: { modifierJson: '{"$set":{"a":1}}' } } },
  { $pull: { _outbox: { revision: 9 } } },
  { $pull: { _outbox: { revision: '1' } } },
  { $pull: { objs: { a: 2 } } },
  { $pull: { objs: { b: 2 } } },
  { $pull: { mixed: { a: 1 } } },
  { $pull: { _outbox: { revision: 1, nested: { a: 1 } } } },
  { $pull: { tags: { $in: ['x', 'y'] } } },
  { $pull: { missing: 1, 'meta.none': 2 } },
  { $pull: { title: 'A' } },
  { $set: { status: 'busy' }, $inc: { count: 1, revision: 1 }, $push: { _outbox: { revision: 2, userId: 'u' } } },
  { $set: { a: 1 }, $unset: { b: '' }, $inc: { c: 1 }, $push: { d: 1 }, $pull: { tags: 'y' } },
  { $min: { count: 1 } },
  { $max: { count: 10 }, $set: { title: 'C' } },
  { $mul: { count: 3 } },
  { $addToSet: { tags: 'x' } },
  { $rename: { title: 'name' } },
  { $pop: { tags: 1 } },
  { $pullAll: { list: [2, '2'] } },
];

describe('applyUpdate', () => {
  it('gives what the query engine gives for every document and modifier, errors included', () => {
    for (const document of documents) {
      for (const modifier of modifiers) {
        expect(viaApplyUpdate(document, modifier), `${document.id} ${JSON.stringify(modifier)}`).toEqual(viaEngine(document, modifier));
      }
    }
  });

  it('answers a copy and leaves the original and the operands as they were', () => {
    const document = { id: 'd', meta: { tags: ['a'] }, count: 1 };
    const operand = { nested: { value: 1 } };
    const next = applyUpdate(document, { $set: { 'meta.extra': operand }, $inc: { count: 1 }, $push: { 'meta.tags': 'b' } });
    operand.nested.value = 2;
    expect(document).toEqual({ id: 'd', meta: { tags: ['a'] }, count: 1 });
    expect(next).toEqual({ id: 'd', meta: { tags: ['a', 'b'], extra: { nested: { value: 1 } } }, count: 2 });
  });

  it('never writes through a prototype key', () => {
    expect(() => applyUpdate({ id: 'p' }, { $set: { '__proto__.polluted': true } })).toThrow();
    applyUpdate({ id: 'p' }, { $set: { 'constructor.prototype.polluted': true } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('replayUpdates', () => {
  /** A history as a store holds one: only the modifiers that applied, in order, from an empty document. */
  function randomHistory(length: number): { history: UpdateModifier[]; expected: Record<string, unknown> } {
    const history: UpdateModifier[] = [];
    let expected: Record<string, unknown> = {};
    while (history.length < length) {
      const modifier = modifiers[Math.floor(Math.random() * modifiers.length)] as UpdateModifier;
      try {
        expected = applyUpdate(expected, modifier);
        history.push(modifier);
      } catch {
        // Refused at its time: never in a history.
      }
    }
    return { history, expected };
  }

  it('makes what applying each change to a copy makes, on random histories', () => {
    for (let round = 0; round < 300; round += 1) {
      const { history, expected } = randomHistory(12);
      expect(replayUpdates(history), JSON.stringify(history)).toEqual(expected);
    }
  });

  it('applies a modifier once when only part of it could be applied directly', () => {
    // `$inc` is direct, `tags.0` (an array element) is the engine's: the whole modifier goes to the engine, once.
    expect(replayUpdates([{ $set: { count: 1, tags: ['x'] } }, { $inc: { count: 1 }, $set: { 'tags.0': 'z' } }])).toEqual({ count: 2, tags: ['z'] });
  });

  it('leaves the modifiers as they were, also when the engine put their values into the document', () => {
    const history: UpdateModifier[] = [{ $max: { obj: { inner: { a: 1 } } } }, { $set: { 'obj.inner.b': 2 } }, { $push: { 'obj.list': 1 } }];
    const before = JSON.stringify(history);
    expect(replayUpdates(history)).toEqual({ obj: { inner: { a: 1, b: 2 }, list: [1] } });
    expect(JSON.stringify(history)).toBe(before);
  });
});

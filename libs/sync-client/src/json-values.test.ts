import { describe, expect, it } from 'vitest';
import { jsonFields } from './json-values';

const problem = (fields: Record<string, unknown>, removals = false) => {
  const checked = jsonFields(fields, { removals });
  return 'problem' in checked ? checked.problem : undefined;
};

describe('jsonFields', () => {
  it('copies what JSON carries unchanged, dropping an undefined property as JSON does (kept at the top for an update)', () => {
    const fields = { s: 'x', n: -1.5, b: false, z: null, list: [1, 'a', null, [{}]], nested: { a: { b: [] }, gone: undefined }, removed: undefined };
    const checked = jsonFields(fields);
    expect(checked).toEqual({ fields: JSON.parse(JSON.stringify(fields)) });
    expect('fields' in checked && Object.keys(checked.fields)).toEqual(['s', 'n', 'b', 'z', 'list', 'nested']);
    const update = jsonFields({ title: 't', removed: undefined }, { removals: true });
    expect('fields' in update && Object.entries(update.fields)).toEqual([
      ['title', 't'],
      ['removed', undefined],
    ]);
    // A shared (not cyclic) object is fine: JSON writes it twice.
    const shared = { a: 1 };
    expect(jsonFields({ x: shared, y: [shared] })).toEqual({ fields: { x: { a: 1 }, y: [{ a: 1 }] } });
    // The copy is a copy.
    const copied = jsonFields(fields);
    expect('fields' in copied && copied.fields.nested).not.toBe(fields.nested);
  });

  it('refuses values JSON cannot carry or would change, naming the path', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.again = { back: cyclic };
    const holey = [1, , 3];
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ n: 1n }, 'Field n:'],
      [{ a: { b: [0, Number.NaN] } }, 'Field a.b[1]:'],
      [{ i: Number.NEGATIVE_INFINITY }, 'Field i:'],
      [{ c: cyclic }, 'Field c.again.back:'],
      [{ d: new Date(0) }, 'Field d:'],
      [{ m: new Map() }, 'Field m:'],
      [{ f: () => 1 }, 'Field f:'],
      [{ s: Symbol('s') }, 'Field s:'],
      [{ u: [undefined] }, 'Field u[0]:'],
      [{ h: holey }, 'Field h[1]:'],
    ];
    for (const [fields, prefix] of cases) {
      const found = problem(fields);
      expect(found?.code, prefix).toBe('SYNC_INVALID_VALUE');
      expect(found?.message.startsWith(prefix), found?.message).toBe(true);
    }
    const root: Record<string, unknown> = {};
    root.self = root;
    expect(problem(root)?.code).toBe('SYNC_INVALID_VALUE');
    // An object without a prototype is a plain object.
    expect(problem({ o: Object.assign(Object.create(null), { a: 1 }) })).toBeUndefined();
  });

  it("refuses keys the server refuses at any depth (its JSON parser's __proto__ and constructor holding prototype; its modifier rules' __proto__, constructor, prototype), and nothing else", () => {
    const forbidden: Array<[Record<string, unknown>, string]> = [
      [JSON.parse('{"__proto__": {"x": 1}}'), 'Field __proto__:'],
      [JSON.parse('{"a": [{"b": {"__proto__": 1}}]}'), 'Field a[0].b.__proto__:'],
      [{ constructor: { prototype: { x: 1 } } }, 'Field constructor:'],
      [{ deep: { list: [{ constructor: { prototype: null } }] } }, 'Field deep.list[0].constructor:'],
      [{ constructor: 'x' }, 'Field constructor:'],
      [{ a: { prototype: 1 } }, 'Field a.prototype:'],
    ];
    for (const [fields, prefix] of forbidden) {
      const found = problem(fields, true);
      expect(found?.code, prefix).toBe('SYNC_FORBIDDEN_KEY');
      expect(found?.message.startsWith(prefix), found?.message).toBe(true);
    }
    for (const fields of [{ toString: 'x' }, { a: { valueOf: 1, hasOwnProperty: null } }, { a: '__proto__' }, { proto: 1 }, { 'a.b': { 'c.d': 1 } }]) {
      expect(problem(fields), JSON.stringify(fields)).toBeUndefined();
    }
  });
});

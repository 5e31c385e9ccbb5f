import { describe, expect, it } from 'vitest';
import { widgetRegistry } from './registry';
import type { WidgetTree } from './widget';
import { validateWidgetTree } from './widget-tree';

const widget = (id: string, slots?: Record<string, string[]>, name = 'StreamVideo') => ({ id, name, ...(slots ? { slots } : {}) });
const tree = (rootWidgetId: string | undefined, ...widgets: Array<ReturnType<typeof widget>>): WidgetTree => ({
  ...(rootWidgetId === undefined ? {} : { rootWidgetId }),
  widgets: Object.fromEntries(widgets.map((w) => [w.id, w])),
});

describe('widget tree validation', () => {
  it.each<[string, WidgetTree, Array<{ path: string; message: RegExp }>]>([
    ['an empty page', tree(undefined), []],
    ['a single root', tree('a', widget('a')), []],
    ['a nested tree with two slots', tree('a', widget('a', { header: ['b'], main: ['c', 'd'] }), widget('b'), widget('c', { inner: ['e'] }), widget('d'), widget('e')), []],
    ['a slot naming a missing widget', tree('a', widget('a', { main: ['ghost'] })), [{ path: 'widgets.a.slots.main', message: /ghost.*not in the tree/ }]],
    ['no root id but widgets', tree(undefined, widget('a')), [{ path: 'rootWidgetId', message: /missing/ }]],
    ['a root id that is not in the tree', tree('x', widget('a')), [{ path: 'rootWidgetId', message: /x is not in the tree/ }]],
    ['an orphan', tree('a', widget('a'), widget('b')), [{ path: 'widgets.b', message: /orphan/ }]],
    ['two roots (a second top-level widget is an orphan)', tree('a', widget('a', { main: ['b'] }), widget('b'), widget('c', { main: ['d'] }), widget('d')), [
      { path: 'widgets.c', message: /orphan/ },
      { path: 'widgets.d', message: /orphan/ },
    ]],
    ['a slot pointing back at the root', tree('a', widget('a', { main: ['b'] }), widget('b', { main: ['a'] })), [{ path: 'widgets.b.slots.main', message: /root a: a cycle/ }]],
    ['a cycle off the root', tree('a', widget('a'), widget('b', { main: ['c'] }), widget('c', { main: ['b'] })), [
      { path: 'widgets.b', message: /cycle/ },
      { path: 'widgets.c', message: /cycle/ },
    ]],
    ['a widget inside itself', tree('a', widget('a'), widget('b', { main: ['b'] })), [{ path: 'widgets.b', message: /cycle/ }]],
    ['a widget in two slots', tree('a', widget('a', { one: ['b'], two: ['b'] }), widget('b')), [{ path: 'widgets.a.slots.two', message: /already in a slot of a/ }]],
    ['a widget stored under another id', { rootWidgetId: 'a', widgets: { a: { id: 'z', name: 'StreamVideo' } } }, [{ path: 'widgets.a.id', message: /stored under a/ }]],
  ])('%s', (_case, input, expected) => {
    const problems = validateWidgetTree(input);
    expect(problems.map((problem) => problem.path)).toEqual(expected.map((problem) => problem.path));
    problems.forEach((problem, index) => expect(problem.message).toMatch(expected[index]?.message as RegExp));
  });

  it('with a registry, names a widget type that is not registered', () => {
    const problems = validateWidgetTree(tree('a', widget('a', { main: ['b'] }, 'CheckIn'), widget('b', undefined, 'Marquee')), widgetRegistry);
    expect(problems).toEqual([{ path: 'widgets.b.name', message: 'Marquee is not a registered widget' }]);
  });
});

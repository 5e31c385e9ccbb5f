import { describe, expect, it } from 'vitest';
import { entityTitle, MAX_TITLE_LENGTH } from './entity-title';

describe('entityTitle', () => {
  it.each([
    ['title wins over name', 'tasks', { title: 'T', name: 'N' }, 'T'],
    ['name when no title', 'tasks', { name: 'N', label: 'L' }, 'N'],
    ['blank title is skipped', 'tasks', { title: '   ', label: 'L' }, 'L'],
    ['then label, displayName, subject, email', 'tasks', { subject: 'S', email: 'e@x' }, 'S'],
    ['email last', 'tasks', { email: 'e@x', other: 'o' }, 'e@x'],
    ['numbers are titles', 'tasks', { name: 42 }, '42'],
    ['localised map prefers English', 'applications', { title: { de: 'Bestellung', en: 'Order' } }, 'Order'],
    ['localised map without English takes its first text', 'applications', { title: { de: 'Bestellung', fr: 'Commande' } }, 'Bestellung'],
    ['types use name before their localised title', 'types', { title: { en: 'Shown' }, name: 'Orders' }, 'Orders'],
    ['fallback is the entity id', 'tasks', { count: 1, title: null, name: ['x'] }, 'the-id'],
    ['trims', 'tasks', { title: '  Padded ' }, 'Padded'],
  ])('%s', (_name, typeId, entity, expected) => {
    expect(entityTitle(typeId, entity as Record<string, unknown>, 'the-id')).toBe(expected);
  });

  it('cuts long titles to the limit with an ellipsis', () => {
    const title = entityTitle('tasks', { title: 'x'.repeat(500) }, 'id');
    expect(title).toHaveLength(MAX_TITLE_LENGTH);
    expect(title.endsWith('…')).toBe(true);
  });
});

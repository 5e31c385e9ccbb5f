import { describe, expect, it } from 'vitest';
import { documentEventSchema } from './document-events';

const event = {
  projectId: 'p1',
  typeId: 'tasks',
  collection: 'tenant-p1-tasks',
  kind: 'updated',
  entityId: 'e1',
  revision: 3,
  change: { userId: 'u1', timestamp: 1_700_000_000_000, baseRevision: 2, modifier: { $set: { status: 'done' }, $inc: { count: 1 } } },
  entity: { id: 'e1', status: 'done', count: 3, nested: { tags: ['a'] }, revision: 3 },
};

describe('documentEventSchema', () => {
  it('accepts an event as the outbox publishes it, entity and modifier unchanged', () => {
    const parsed = documentEventSchema.parse(structuredClone(event));
    expect(parsed).toEqual(event);
  });

  it.each([
    ['an entity that is an array', { entity: [] }],
    ['an entity that is null', { entity: null }],
    ['no entity', { entity: undefined }],
    ['a modifier operand that is not an object', { change: { ...event.change, modifier: { $set: 'done' } } }],
    ['a modifier that is an array', { change: { ...event.change, modifier: [] } }],
    ['an unknown kind', { kind: 'renamed' }],
    ['a fractional revision', { revision: 1.5 }],
  ])('refuses %s', (_name, change) => {
    expect(documentEventSchema.safeParse({ ...structuredClone(event), ...change }).success).toBe(false);
  });
});

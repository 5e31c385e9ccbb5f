import { DEFAULT_DELETION_PERIODS } from '@platform/widgets';
import { describe, expect, it } from 'vitest';
import { chooseDeletionPeriod, erasureModifier, retentionFields } from './retention-rules';
import { INTERNAL_VISITOR_FIELDS, withoutServerFields } from './visitor-fields';
import { typeIdOfCollection } from './collection-name';

const periods = [
  { duration: 1_000, label: { en: 'short' }, isDefault: false },
  { duration: 5_000, label: { en: 'default' }, isDefault: true },
];

describe('deletion period choice', () => {
  it.each([
    ['no preference: the default one', periods, undefined, 5_000],
    ['a preference the widget offers', periods, 1_000, 1_000],
    ['a preference it does not offer', periods, 2_000, null],
    ['the spec default when the widget has none configured', DEFAULT_DELETION_PERIODS, undefined, 2_419_200_000],
  ])('%s', (_case, offered, requested, expected) => {
    expect(chooseDeletionPeriod(offered, requested)?.duration ?? null).toBe(expected);
  });

  it('deleteOn is now plus the chosen duration', () => {
    expect(retentionFields(10_000, 5_000)).toEqual({ deleteOn: 15_000, deleteOnPreference: 5_000 });
  });
});

describe('erasure', () => {
  it('removes every personal field and marks the record deleted now', () => {
    const entity = { id: 'v1', revision: 3, createdAt: 1, updatedAt: 2, access: { read: { userIds: ['a'] } }, name: 'Ada', email: 'a@b', deleteOn: 5, _outbox: [] };
    expect(erasureModifier(entity, 99)).toEqual({ $set: { deletedAt: 99 }, $unset: { name: '', email: '', deleteOn: '' } });
  });

  it('keeps the original deletion time of a record that was already soft-deleted', () => {
    expect(erasureModifier({ id: 'v1', revision: 1, createdAt: 1, updatedAt: 2, deletedAt: 50 }, 99)).toEqual({ $set: { deletedAt: 50 } });
  });
});

describe('client data', () => {
  it('drops the internal visitor fields and names them', () => {
    const data = { name: 'Ada', latestEventType: 'checkOut', latestEventAt: 1, deleteOn: 2, deleteOnPreference: 3 };
    expect(withoutServerFields(data, INTERNAL_VISITOR_FIELDS)).toEqual({ fields: { name: 'Ada' }, ignored: ['latestEventType', 'latestEventAt', 'deleteOn', 'deleteOnPreference'] });
  });
});

describe('collection names', () => {
  it.each([
    ['p1', 'tenant-p1-visitors', 'visitors'],
    ['p1', 'tenant-p1-visitor-events', 'visitor-events'],
    ['p1', 'tenant-p2-visitors', null],
    ['p1', 'visitors', null],
    ['p1', 'tenant-p1-', null],
    ['p1', 'tenant-p1-../x', null],
  ])('%s / %s → %s', (projectId, name, expected) => {
    expect(typeIdOfCollection(projectId, name)).toBe(expected);
  });
});

import type { DocumentStore } from '@platform/storage';
import { describe, expect, it } from 'vitest';
import type { StoredAction } from '../domain/action-schema';
import { ActionRepository, type ActionHead } from './action-repository';

/** Stored action records by id, and how often each was read whole: a store holding only what `whole` reads. */
function recordingStore(actions: StoredAction[]) {
  const records = new Map(actions.map(({ blocks, ...rest }) => [rest.id, { ...rest, blocksJson: JSON.stringify(blocks) }]));
  const reads = new Map<string, number>();
  const collection = {
    async findById(id: string) {
      reads.set(id, (reads.get(id) ?? 0) + 1);
      return records.get(id) ?? null;
    },
  };
  return { store: { collection: () => collection } as unknown as DocumentStore, reads };
}

function action(id: string, configurationCharacters: number): StoredAction {
  const blocks = [{ id: 'check', blockName: 'conditional-logic', configuration: { operator: 'equals', value: 'x'.repeat(configurationCharacters) } }];
  return { id, projectId: 'p1', title: id, triggers: [{ id: 't', triggerName: 'documentCreated' }], blocks, connections: [], ownerId: 'u1', revision: 0, createdAt: 1, updatedAt: 1 };
}

const head = ({ id, projectId, triggers, revision }: StoredAction): ActionHead => ({ id, projectId, triggers, revision });

describe('ActionRepository: actions kept parsed', () => {
  it('keeps an action parsed for its revision', async () => {
    const small = action('small', 10);
    const { store, reads } = recordingStore([small]);
    const actions = new ActionRepository(store);
    expect(await actions.whole(head(small))).toEqual(small);
    expect(await actions.whole(head(small))).toEqual(small);
    expect(reads.get('small')).toBe(1);
  });

  it('keeps at most 16 Mi characters of JSON, however few the actions: the least recently used large one is read again', async () => {
    const large = Array.from({ length: 17 }, (_, index) => action(`large-${index}`, 1024 * 1024));
    const { store, reads } = recordingStore(large);
    const actions = new ActionRepository(store);
    for (const each of large) await actions.whole(head(each));
    await actions.whole(head(large[16]!));
    await actions.whole(head(large[0]!));
    expect(reads.get('large-16')).toBe(1);
    expect(reads.get('large-0')).toBe(2);
  });
});

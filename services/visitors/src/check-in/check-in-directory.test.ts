import type { DocumentStore } from '@platform/storage';
import { describe, expect, it } from 'vitest';
import { CheckInDirectory, type ProjectCheckIns } from './check-in-directory';

/** A store holding one project's applications that counts how often they are read (each read walks them all). */
function countingStore(applications: Array<Record<string, unknown>>) {
  const reads = { count: 0 };
  let release: (() => void) | undefined;
  const gate = { hold: false };
  const store = {
    collection: () => ({
      find: async () => {
        reads.count += 1;
        if (gate.hold) await new Promise<void>((resolve) => (release = resolve));
        return applications.map((application) => structuredClone(application));
      },
    }),
  } as unknown as DocumentStore;
  return { store, reads, gate, release: () => release?.() };
}

const kiosk = (id: string, visitorTypeId: string) => ({
  id,
  routes: [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'CheckIn', data: { visitorTypeId } } } } }],
});

const binds = (typeId: string) => (setup: ProjectCheckIns) => setup.visitorTypes.has(typeId);

describe('CheckInDirectory', () => {
  it('reads the applications again at most once per cache period for types the cached setup lacks', async () => {
    const time = { now: 1_000_000 };
    const { store, reads } = countingStore([kiosk('kiosk', 'guests')]);
    const directory = new CheckInDirectory(store, () => time.now, 2_000);
    expect((await directory.forProject('p1', binds('guests'))).visitorTypes.has('guests')).toBe(true);
    expect(reads.count).toBe(1);

    // A hundred requests naming unbound types within the period: one reread, then the fresh cache answers.
    for (let i = 0; i < 100; i += 1) expect((await directory.forProject('p1', binds(`nosuchtype-${i}`))).visitorTypes.has(`nosuchtype-${i}`)).toBe(false);
    expect(reads.count).toBe(2);
    time.now += 1_999;
    await directory.forProject('p1', binds('nosuchtype'));
    expect(reads.count).toBe(2);
    // Bound types are still answered from the cache.
    expect((await directory.forProject('p1', binds('guests'))).visitorTypes.has('guests')).toBe(true);
    expect(reads.count).toBe(2);

    // After the period the setup is read again, and the next miss may reread once more.
    time.now += 1;
    await directory.forProject('p1', binds('guests'));
    expect(reads.count).toBe(3);
    for (let i = 0; i < 50; i += 1) await directory.forProject('p1', binds('nosuchtype'));
    expect(reads.count).toBe(4);
  });

  it('a widget added a moment ago is found by the one reread of the period', async () => {
    const time = { now: 1_000_000 };
    const applications = [kiosk('kiosk', 'guests')];
    const { store, reads } = countingStore(applications);
    const directory = new CheckInDirectory(store, () => time.now, 2_000);
    await directory.forProject('p1', binds('guests'));
    applications.push(kiosk('side-door', 'walk-ins'));
    expect((await directory.forProject('p1', binds('walk-ins'))).visitorTypes.has('walk-ins')).toBe(true);
    expect(reads.count).toBe(2);
  });

  it('concurrent callers share one load', async () => {
    const time = { now: 1_000_000 };
    const { store, reads, gate, release } = countingStore([kiosk('kiosk', 'guests')]);
    const directory = new CheckInDirectory(store, () => time.now, 2_000);
    gate.hold = true;
    const first = Array.from({ length: 20 }, (_, i) => directory.forProject('p1', binds(`nosuchtype-${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(reads.count).toBe(1);
    gate.hold = false;
    release();
    const answers = await Promise.all(first);
    expect(answers.every((answer) => answer.visitorTypes.has('guests'))).toBe(true);
    expect(reads.count).toBe(1);

    // Concurrent misses on the fresh cache: one shared reread.
    gate.hold = true;
    const misses = Array.from({ length: 20 }, () => directory.forProject('p1', binds('nosuchtype')));
    await new Promise((resolve) => setTimeout(resolve, 5));
    gate.hold = false;
    release();
    await Promise.all(misses);
    expect(reads.count).toBe(2);
  });
});

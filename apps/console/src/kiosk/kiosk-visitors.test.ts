import { describe, expect, it } from 'vitest';
import { KioskVisitors } from './kiosk-visitors';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

describe('KioskVisitors', () => {
  it('keeps visitors per kiosk page and forgets one on check-out', () => {
    const storage = memoryStorage();
    const reception = new KioskVisitors(storage, 'p1', 'reception', () => 1_000);
    reception.add({ id: 'v1', secret: 's1', name: 'Ada', deleteOn: 5_000 });
    reception.add({ id: 'v2', secret: 's2', name: 'Bob', deleteOn: 5_000 });
    expect(new KioskVisitors(storage, 'p1', 'other', () => 1_000).list()).toEqual([]);
    reception.remove('v1');
    expect(reception.list().map((visitor) => visitor.name)).toEqual(['Bob']);
  });

  it('drops visitors past their erasure date, and anything that is not a visitor entry', () => {
    const storage = memoryStorage();
    const time = { now: 1_000 };
    const kiosk = new KioskVisitors(storage, 'p1', 'a1', () => time.now);
    kiosk.add({ id: 'v1', secret: 's1', name: 'Ada', deleteOn: 2_000 });
    time.now = 2_000;
    expect(kiosk.list()).toEqual([]);
    storage.setItem('platform-kiosk:p1:a1', '{not json');
    expect(kiosk.list()).toEqual([]);
    storage.setItem('platform-kiosk:p1:a1', JSON.stringify([{ id: 'v1' }, 'x']));
    expect(kiosk.list()).toEqual([]);
  });
});

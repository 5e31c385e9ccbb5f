import type { KeyValue } from '@platform/kv';

/**
 * The real key-value store, with one switch: `holdNext(operation, prefix)` holds the next such
 * write under `prefix` until released, which is where a slow store or a busy process puts the
 * race: a sign-in's first write of its session (`setField`: the user's session index, after its
 * password was checked), a password change's sign-in count given back (after the current password was checked).
 */
/** The writes a hold can catch. */
type HeldOperation = 'set' | 'setField' | 'increment';

export function withHeldWrites(inner: KeyValue) {
  let held: { operation: HeldOperation; prefix: string; caught: () => void; release: Promise<void> } | undefined;
  async function pass(operation: HeldOperation, key: string): Promise<void> {
    if (!held || held.operation !== operation || !key.startsWith(held.prefix)) return;
    const hold = held;
    held = undefined;
    hold.caught();
    await hold.release;
  }
  const kv: KeyValue = {
    kind: inner.kind,
    get: (key) => inner.get(key),
    set: async (key, value, options) => (await pass('set', key), inner.set(key, value, options)),
    increment: async (key, options) => (await pass('increment', key), inner.increment(key, options)),
    delete: (key) => inner.delete(key),
    scan: (prefix) => inner.scan(prefix),
    setField: async (key, field, value, options) => (await pass('setField', key), inner.setField(key, field, value, options)),
    fields: (key) => inner.fields(key),
    deleteField: (key, field) => inner.deleteField(key, field),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  function holdNext(operation: HeldOperation, prefix: string): { caught: Promise<void>; release: () => void } {
    let caught!: () => void;
    let release!: () => void;
    const caughtPromise = new Promise<void>((resolve) => (caught = resolve));
    held = { operation, prefix, caught, release: new Promise<void>((resolve) => (release = resolve)) };
    return { caught: caughtPromise, release };
  }
  return { kv, holdNext };
}

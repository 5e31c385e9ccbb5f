import type { DocumentStore } from './port';

/**
 * Drops collection `name` (DocumentStore.dropCollection) and answers how many documents it held,
 * counted just before: what an erasure reports in its log.
 */
export async function dropCounted(store: DocumentStore, name: string): Promise<number> {
  const held = await store.collection(name).count();
  await store.dropCollection(name);
  return held;
}

import type { Filter, Projection, SortSpec } from '../port';

/**
 * The port names a document's key `id`; MongoDB names it `_id`. These translate the top-level
 * key both ways so `id` gets MongoDB's primary index and is stored once.
 */
const LOGICAL_OPERATORS = new Set(['$and', '$or', '$nor']);

export function toMongoFilter(filter: Filter): Record<string, unknown> {
  const translated: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL_OPERATORS.has(key) && Array.isArray(value)) translated[key] = value.map((clause) => toMongoFilter(clause as Filter));
    else translated[key === 'id' ? '_id' : key] = value;
  }
  return translated;
}

export function toMongoKeys<V>(keys: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(keys).map(([key, value]) => [key === 'id' ? '_id' : key, value]));
}

export function toMongoSort(sort: SortSpec): SortSpec {
  return toMongoKeys(sort);
}

export function toMongoProjection(projection: Projection): Projection {
  return toMongoKeys(projection);
}

export function toMongoDocument(document: { id: string; [field: string]: unknown }): Record<string, unknown> {
  const { id, ...rest } = document;
  return { _id: id, ...rest };
}

export function fromMongoDocument<T>(document: Record<string, unknown>): T {
  const { _id, ...rest } = document;
  return { id: _id, ...rest } as T;
}

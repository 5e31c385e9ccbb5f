import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { DocumentStore, StoredDocument } from '@platform/storage';
import { exportManifestSchema, MANIFEST_FILE, type ExportManifest } from './export-manifest';
import type { Progress } from './progress';

/** Documents per insertMany: one group commit (embedded) or one round trip (MongoDB). */
const BATCH = 1000;

export async function readManifest(directory: string): Promise<ExportManifest> {
  const text = await readFile(join(directory, MANIFEST_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${join(directory, MANIFEST_FILE)} cannot be read (${error.code ?? error.message}): is ${directory} an export of pnpm data:export?`);
  });
  const parsed = exportManifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${join(directory, MANIFEST_FILE)}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  return parsed.data;
}

/**
 * Loads an export into `store` (embedded or MongoDB): indexes first, so unique keys hold, then
 * each collection's NDJSON, streamed in batches. Every collection it loads must be empty in the
 * target: an import never mixes with or overwrites existing documents.
 */
export async function importStore(directory: string, store: DocumentStore, progress: Progress): Promise<{ collections: number; documents: number }> {
  const manifest = await readManifest(directory);
  for (const { name } of manifest.collections) {
    if ((await store.collection(name).count()) > 0) throw new Error(`the target already holds documents in ${name}: import into an empty store`);
  }
  const total = manifest.collections.reduce((sum, entry) => sum + entry.documents, 0);
  let documents = 0;
  for (const entry of manifest.collections) {
    const collection = store.collection<StoredDocument>(entry.name);
    for (const index of entry.indexes) await collection.ensureIndex(index);
    let batch: StoredDocument[] = [];
    let lineNumber = 0;
    const flush = async () => {
      await collection.insertMany(batch);
      documents += batch.length;
      batch = [];
      progress.update(documents, total, `${documents}/${total} documents`);
    };
    for await (const line of createInterface({ input: createReadStream(join(directory, entry.file)), crlfDelay: Infinity })) {
      lineNumber += 1;
      if (line.length === 0) continue;
      const document = parseDocument(line, `${entry.file} line ${lineNumber}`);
      batch.push(document);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
  }
  progress.done();
  return { collections: manifest.collections.length, documents };
}

function parseDocument(line: string, where: string): StoredDocument {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${where}: not JSON`);
  }
  if (value === null || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string') throw new Error(`${where}: a document needs a string id`);
  return value as StoredDocument;
}

import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BackupSummary, IndexSpec } from '@platform/storage';
import { fileForCollection, MANIFEST_FILE, type ExportManifest } from './export-manifest';
import type { Progress } from './progress';

/** A line of the embedded store's snapshot log (what a backup writes). */
type SnapshotLine = { c: string; put?: Record<string, unknown>; index?: IndexSpec };

interface CollectionOutput {
  stream: WriteStream;
  entry: ExportManifest['collections'][number];
}

/**
 * Writes every collection of the embedded store as NDJSON into `directory` (created; it must be
 * empty) with a manifest of names, counts and indexes. The source is a backup taken by `backUp`
 * into a scratch directory (a consistent copy, also of a running platform), read as a stream, so
 * memory stays flat however large the store is; the scratch copy is removed afterwards.
 */
export async function exportStore(directory: string, backUp: (scratch: string) => Promise<BackupSummary>, progress: Progress): Promise<ExportManifest> {
  await mkdir(directory, { recursive: true });
  if ((await readdir(directory)).length > 0) throw new Error(`the export directory ${directory} is not empty`);
  const scratch = await mkdtemp(join(directory, '.snapshot-'));
  try {
    const backup = await backUp(join(scratch, 'store'));
    const log = join(backup.directory, 'store.wal');
    const total = (await stat(log)).size;
    const outputs = new Map<string, CollectionOutput>();
    let read = 0;
    let documents = 0;
    const lines = createInterface({ input: createReadStream(log), crlfDelay: Infinity });
    for await (const line of lines) {
      read += Buffer.byteLength(line) + 1;
      const record = JSON.parse(line) as SnapshotLine;
      let output = outputs.get(record.c);
      if (!output) {
        const entry = { name: record.c, file: fileForCollection(record.c), documents: 0, indexes: [] as IndexSpec[] };
        output = { stream: createWriteStream(join(directory, entry.file)), entry };
        outputs.set(record.c, output);
      }
      if (record.index) output.entry.indexes.push(record.index);
      if (record.put) {
        output.entry.documents += 1;
        documents += 1;
        if (!output.stream.write(`${JSON.stringify(record.put)}\n`)) await once(output.stream, 'drain');
      }
      progress.update(read, total, `${documents} documents`);
    }
    progress.done();
    await Promise.all([...outputs.values()].map(({ stream }) => new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())))));
    const manifest: ExportManifest = {
      format: 'platform-ndjson',
      version: 1,
      exportedAt: new Date().toISOString(),
      collections: [...outputs.values()].map(({ entry }) => entry).sort((a, b) => (a.name < b.name ? -1 : 1)),
    };
    await writeFile(join(directory, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

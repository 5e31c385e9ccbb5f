import { readFile } from 'node:fs/promises';
import { MemoryStore, SyncClient } from '@platform/sync-client';
import { forEachConcurrently, signedInClient } from '../api-client';
import { openStream } from '../realtime-stream';
import { formatRow, writeSection } from '../report';
import { withPlatformProcess } from '../shapes';
import { median } from '../stats';

const DOCUMENTS = 10_000;
const STREAMS = 100;
const RUNS = 3;

/** Current and peak resident set of a process in MiB, from Linux's /proc (VmRSS, VmHWM). */
async function residentMiB(pid: number): Promise<{ current: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { current: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

interface MemoryRun {
  idle: number;
  loaded: number;
  peak: number;
}

/** One fresh all-in-one process: idle RSS, then 10,000 documents, 100 streams, writes fanned out to them and a full initial sync. */
function measureOnce(): Promise<MemoryRun> {
  return withPlatformProcess({ SERVICES: 'all' }, async (platform) => {
    const pid = platform.child.pid as number;
    const idle = (await residentMiB(pid)).current;
    const api = await signedInClient(platform.url);
    const { id: projectId } = await api.call<{ id: string }>('POST', '/api/projects', { name: 'memory bench' });
    const { id: typeId } = await api.call<{ id: string }>('POST', `/api/projects/${projectId}/types`, { name: 'Items' });
    const data = `/api/projects/${projectId}/types/${typeId}/data`;
    const numbers = Array.from({ length: DOCUMENTS - 100 }, (_, n) => n);
    await forEachConcurrently(numbers, 16, async (n) => void (await api.call('POST', data, { title: `item ${n}`, n, tags: ['a', 'b'] })));

    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(platform.url, api.token, projectId)));
    for (let n = 0; n < 100; n += 1) {
      const id = `fan${n}`;
      const arrivals = streams.map((stream) => stream.next(id));
      await api.call('POST', data, { id, n });
      await Promise.all(arrivals);
    }
    const client = new SyncClient({ baseUrl: platform.url, projectId, token: api.token, collections: [typeId], store: new MemoryStore(), realtime: false });
    await client.sync();
    const synced = client.collection(typeId).list().length;
    await client.close();
    if (synced !== DOCUMENTS) throw new Error(`initial sync got ${synced} documents, expected ${DOCUMENTS}`);
    const { current, peak } = await residentMiB(pid);
    for (const stream of streams) stream.close();
    return { idle, loaded: current, peak };
  });
}

/**
 * Issue 11: resident memory of the all-in-one process at 10,000 documents and 100 connected
 * realtime clients. All-in-one only: the figure is the footprint of the one process that hosts
 * every service, which the microservice shape does not have.
 */
export async function memory(): Promise<void> {
  const runs: MemoryRun[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await measureOnce());
  const mib = (pick: (run: MemoryRun) => number) => Math.round(median(runs.map(pick)));
  await writeSection(
    'memory',
    `## Memory of the all-in-one process (issue 11)

Command: \`pnpm bench memory\`. All-in-one shape only, by definition: the figure is the footprint
of the one process that hosts every service. A fresh all-in-one process (embedded store under a
temporary \`DATA_DIR\`, in-process bus) per run; ${DOCUMENTS.toLocaleString('en-US')} documents written through the API, ${STREAMS} realtime
streams connected, 100 writes each notified to every stream, then a fresh client's initial sync of
all documents. Resident set from \`/proc/{pid}/status\` (VmRSS, and VmHWM for the peak); median of
${RUNS} runs; the process includes tsx's loader.

| measure | MiB |
|---|---|
${formatRow(['idle after start', mib((run) => run.idle)])}
${formatRow([`after ${DOCUMENTS.toLocaleString('en-US')} documents and ${STREAMS} streams`, mib((run) => run.loaded)])}
${formatRow(['peak RSS over the run', mib((run) => run.peak)])}`,
  );
  console.log(`memory: peak ${mib((run) => run.peak)} MiB`);
}
